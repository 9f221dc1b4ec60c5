import { randomUUID } from 'node:crypto';
import type { Counters, DispatchEvent, Form, Integration, Invite, Meta, Role, StateFile, Submission, Token, User, Workspace } from './model.js';

/**
 * All sandbox state, indexed for O(1) lookups by id (and by slug, email, token).
 * Every mutation goes through a method here so that `onChange` (persistence) sees it.
 */
export class Store {
  readonly users = new Map<number, User>();
  readonly usersByEmail = new Map<string, User>();
  readonly tokens = new Map<string, Token>();
  readonly workspaces = new Map<number, Workspace>();
  /** workspace id → (user id → role); insertion order is the member list order. */
  readonly members = new Map<number, Map<number, Role>>();
  /** user id → workspace ids; derived from `members`. */
  readonly userWorkspaces = new Map<number, Set<number>>();
  readonly invites = new Map<number, Invite>();
  readonly forms = new Map<number, Form>();
  readonly formsBySlug = new Map<string, Form>();
  readonly workspaceForms = new Map<number, Set<number>>();
  /** form id → (submission id → submission); insertion order is creation order. */
  readonly submissions = new Map<number, Map<number, Submission>>();
  readonly integrations = new Map<number, Integration>();
  readonly formIntegrations = new Map<number, Set<number>>();
  /** integration id → events, oldest first. */
  readonly events = new Map<number, DispatchEvent[]>();
  counters: Counters = { user: 0, workspace: 0, invite: 0, form: 0, submission: 0, integration: 0, event: 0 };
  meta: Meta = { adminUserId: 0, workspaceId: 0, tokens: { all: '', readonly: '', forms: '', noIntegrations: '' } };
  /** Called after every mutation (the data-file writer hooks in here). */
  onChange: () => void = () => {};
  /** Bumped by every mutation: a request that changed it is answered once the data file holds that version. */
  version = 0;

  /** Next id of a kind; ids are never reused, also across restarts (counters are persisted). */
  nextId(kind: keyof Counters): number {
    this.counters[kind] += 1;
    return this.counters[kind];
  }

  /** Records an in-place change to a record (e.g. a renamed workspace). */
  changed(): void {
    this.version += 1;
    this.onChange();
  }

  // ── users and tokens ────────────────────────────────────────────────

  /** The user with this address, compared case-insensitively. */
  userByEmail(email: string): User | undefined {
    return this.usersByEmail.get(email.toLowerCase());
  }

  addUser(user: User): User {
    this.users.set(user.id, user);
    this.usersByEmail.set(user.email.toLowerCase(), user);
    this.changed();
    return user;
  }

  addToken(token: Token): Token {
    this.tokens.set(token.token, token);
    this.changed();
    return token;
  }

  // ── workspaces and membership ───────────────────────────────────────

  /** A new workspace with `adminId` as its admin. Its settings are the spec sample's: email_settings.from_name, no other keys. */
  createWorkspace(name: string, icon: string, adminId: number, now: number): Workspace {
    const ws = this.addWorkspace({
      id: this.nextId('workspace'),
      name,
      icon,
      settings: { email_settings: { from_name: name } },
      created_at: now,
      updated_at: now,
    });
    this.setMember(ws.id, adminId, 'admin');
    return ws;
  }

  addWorkspace(ws: Workspace): Workspace {
    this.workspaces.set(ws.id, ws);
    this.members.set(ws.id, new Map());
    this.workspaceForms.set(ws.id, new Set());
    this.changed();
    return ws;
  }

  /** Role of a user in a workspace, or undefined when not a member. */
  roleOf(workspaceId: number, userId: number): Role | undefined {
    return this.members.get(workspaceId)?.get(userId);
  }

  workspacesOf(userId: number): Set<number> {
    return this.userWorkspaces.get(userId) ?? new Set();
  }

  setMember(workspaceId: number, userId: number, role: Role): void {
    this.members.get(workspaceId)?.set(userId, role);
    let set = this.userWorkspaces.get(userId);
    if (!set) this.userWorkspaces.set(userId, (set = new Set()));
    set.add(workspaceId);
    this.changed();
  }

  removeMember(workspaceId: number, userId: number): void {
    this.members.get(workspaceId)?.delete(userId);
    this.userWorkspaces.get(userId)?.delete(workspaceId);
    this.changed();
  }

  /** Deletes a workspace with its memberships, invites and forms (and everything under them). */
  deleteWorkspace(id: number): void {
    for (const userId of this.members.get(id)?.keys() ?? []) this.userWorkspaces.get(userId)?.delete(id);
    for (const formId of [...(this.workspaceForms.get(id) ?? [])]) this.deleteForm(formId);
    for (const invite of [...this.invites.values()]) if (invite.workspace_id === id) this.invites.delete(invite.id);
    this.members.delete(id);
    this.workspaceForms.delete(id);
    this.workspaces.delete(id);
    this.changed();
  }

  // ── invites ─────────────────────────────────────────────────────────

  addInvite(invite: Invite): Invite {
    this.invites.set(invite.id, invite);
    this.changed();
    return invite;
  }

  deleteInvite(id: number): void {
    this.invites.delete(id);
    this.changed();
  }

  /** Invites of one workspace in creation order. */
  invitesOf(workspaceId: number): Invite[] {
    return [...this.invites.values()].filter((i) => i.workspace_id === workspaceId);
  }

  // ── forms ───────────────────────────────────────────────────────────

  addForm(form: Form): Form {
    this.forms.set(form.id, form);
    this.formsBySlug.set(form.slug, form);
    this.workspaceForms.get(form.workspace_id)?.add(form.id);
    this.submissions.set(form.id, new Map());
    this.formIntegrations.set(form.id, new Set());
    this.changed();
    return form;
  }

  /** A form by numeric id or by slug; a value of digits only is always an id (docs/service-details.md, Authorization order). */
  findForm(idOrSlug: string): Form | undefined {
    return /^\d+$/.test(idOrSlug) ? this.forms.get(Number(idOrSlug)) : this.formsBySlug.get(idOrSlug);
  }

  deleteForm(id: number): void {
    const form = this.forms.get(id);
    if (!form) return;
    for (const integrationId of [...(this.formIntegrations.get(id) ?? [])]) this.deleteIntegration(integrationId);
    this.formsBySlug.delete(form.slug);
    this.workspaceForms.get(form.workspace_id)?.delete(id);
    this.submissions.delete(id);
    this.formIntegrations.delete(id);
    this.forms.delete(id);
    this.changed();
  }

  // ── submissions ─────────────────────────────────────────────────────

  submissionsOf(formId: number): Map<number, Submission> {
    return this.submissions.get(formId) ?? new Map<number, Submission>();
  }

  addSubmission(sub: Submission): Submission {
    this.submissions.get(sub.form_id)?.set(sub.id, sub);
    this.changed();
    return sub;
  }

  deleteSubmission(formId: number, id: number): void {
    this.submissions.get(formId)?.delete(id);
    this.changed();
  }

  // ── integrations and events ─────────────────────────────────────────

  addIntegration(integration: Integration): Integration {
    this.integrations.set(integration.id, integration);
    this.formIntegrations.get(integration.form_id)?.add(integration.id);
    this.events.set(integration.id, []);
    this.changed();
    return integration;
  }

  /** Integrations of one form in creation order. */
  integrationsOf(formId: number): Integration[] {
    const out: Integration[] = [];
    for (const id of this.formIntegrations.get(formId) ?? []) {
      const integration = this.integrations.get(id);
      if (integration) out.push(integration);
    }
    return out;
  }

  deleteIntegration(id: number): void {
    const integration = this.integrations.get(id);
    if (!integration) return;
    this.formIntegrations.get(integration.form_id)?.delete(id);
    this.events.delete(id);
    this.integrations.delete(id);
    this.changed();
  }

  addEvent(event: DispatchEvent): void {
    // The integration may have been deleted while its delivery was in flight: drop the record then.
    const list = this.events.get(event.integration_id);
    if (!list) return;
    list.push(event);
    this.changed();
  }

  // ── (de)serialisation ───────────────────────────────────────────────

  /** The whole state as the data file stores it. */
  toStateFile(): StateFile {
    const memberships: StateFile['memberships'] = [];
    for (const [workspace_id, map] of this.members) {
      for (const [user_id, role] of map) memberships.push({ workspace_id, user_id, role });
    }
    const submissions: Submission[] = [];
    for (const map of this.submissions.values()) for (const sub of map.values()) submissions.push(sub);
    const events: DispatchEvent[] = [];
    for (const list of this.events.values()) events.push(...list);
    return {
      format: 'formctl-sandbox-state',
      version: 1,
      meta: this.meta,
      counters: this.counters,
      users: [...this.users.values()],
      tokens: [...this.tokens.values()],
      workspaces: [...this.workspaces.values()],
      memberships,
      invites: [...this.invites.values()],
      forms: [...this.forms.values()],
      submissions,
      integrations: [...this.integrations.values()],
      events,
    };
  }

  /** Rebuilds a store (and its indexes) from a validated state file. */
  static fromStateFile(state: StateFile): Store {
    const store = new Store();
    store.counters = { ...state.counters };
    store.meta = state.meta;
    for (const user of state.users) store.addUser(user);
    for (const token of state.tokens) store.addToken(token);
    for (const ws of state.workspaces) store.addWorkspace(ws);
    for (const m of state.memberships) store.setMember(m.workspace_id, m.user_id, m.role);
    for (const invite of state.invites) store.addInvite(invite);
    for (const form of state.forms) store.addForm(form);
    for (const sub of [...state.submissions].sort((a, b) => a.id - b.id)) store.addSubmission({ ...sub, uuid: sub.uuid ?? randomUUID() });
    for (const integration of state.integrations) store.addIntegration(integration);
    for (const event of [...state.events].sort((a, b) => a.id - b.id)) store.addEvent(event);
    return store;
  }
}
