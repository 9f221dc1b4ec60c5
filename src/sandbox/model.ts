// Records as the sandbox stores them (and writes them to the data file).
// Timestamps are epoch milliseconds internally; views render them as ISO 8601.

import type { Ability, InviteStatus, Role } from '../service/access.js';
import type { FormProperty } from '../service/forms.js';
import type { WebhookStatus } from '../service/webhooks.js';

export { ABILITIES, ROLES } from '../service/access.js';
export type { Ability, Role };

export interface User {
  id: number;
  name: string;
  email: string;
  created_at: number;
}

export interface Token {
  token: string;
  user_id: number;
  name: string;
  abilities: Ability[];
}

export interface Workspace {
  id: number;
  name: string;
  icon: string;
  settings: Record<string, unknown>;
  created_at: number;
  updated_at: number;
}

export interface Membership {
  workspace_id: number;
  user_id: number;
  role: Role;
}

export interface Invite {
  id: number;
  workspace_id: number;
  email: string;
  role: Role;
  status: InviteStatus;
  valid_until: number;
  /** Never rendered in a response (spec: invite tokens are never included). */
  token: string;
  created_at: number;
  updated_at: number;
}

export type { FormProperty };

export interface Form {
  id: number;
  workspace_id: number;
  slug: string;
  /** Every writable attribute except `properties` (see form-rules.ts for the list and defaults). */
  attrs: Record<string, unknown>;
  properties: FormProperty[];
  /**
   * The input fields form updates dropped, oldest first (`removed_properties`; absent in data files
   * written before the sandbox kept it, read as none). Never taken from a request body.
   */
  removed_properties?: FormProperty[];
  views_count: number;
  created_at: number;
  updated_at: number;
}

export interface Submission {
  id: number;
  form_id: number;
  data: Record<string, unknown>;
  created_at: number;
  /** Last change (an update through the API); absent means never changed since `created_at`. Retention counts from it. */
  updated_at?: number;
  /** Public UUID (the deployed server's `submission_id` in lists); filled on load for older files. */
  uuid?: string;
  /** Deployed flavour: `partial` for an answer sent with `is_partial: true`; absent means completed. */
  status?: 'completed' | 'partial';
  /** Seconds the respondent took, as sent with the answer; null when unknown. */
  completion_time?: number | null;
  /**
   * Deployed flavour: names of files this submission once held that an update dropped from its
   * answers. The server keeps them in its storage, so an update may name them again.
   */
  files?: string[];
}

export interface WebhookData {
  webhook_url: string;
  webhook_secret: string | null;
  webhook_headers: Record<string, string>;
}

/** Integration kinds the deployed server knows; the spec flavour accepts `webhook` only. */
export const INTEGRATION_KINDS = [
  'email',
  'slack',
  'discord',
  'telegram',
  'webhook',
  'zapier',
  'n8n',
  'activepieces',
  'make',
  'pabbly',
  'albato',
  'google_sheets',
] as const;

export interface Integration {
  id: number;
  form_id: number;
  /** Always `webhook` in the spec flavour; any of INTEGRATION_KINDS in the deployed one (whose `data` is then free-form). */
  integration_id: string;
  status: WebhookStatus;
  data: WebhookData;
  logic: Record<string, unknown> | null;
  created_at: number;
  updated_at: number;
}

export interface DispatchEvent {
  id: number;
  integration_id: number;
  event: 'submission.created';
  status: 'success' | 'failed' | 'timeout';
  response_code: number | null;
  error_message: string | null;
  created_at: number;
  /** Deployed flavour's `data` of an event (what the endpoint answered, or why it failed). */
  data?: Record<string, unknown> | null;
}

export interface SandboxTokens {
  all: string;
  readonly: string;
  forms: string;
  noIntegrations: string;
}

/** A user the sandbox created for people to sign in as (seeded, or by `--user`), with the all-abilities token. */
export interface SeededUser {
  user_id: number;
  token: string;
}

export interface Meta {
  adminUserId: number;
  workspaceId: number;
  tokens: SandboxTokens;
  demoFormId?: number;
  /** Users with a printed token, the admin first. Absent in data files written before there were several. */
  users?: SeededUser[];
}

export interface Counters {
  user: number;
  workspace: number;
  invite: number;
  form: number;
  submission: number;
  integration: number;
  event: number;
}

/** The data file's content. `format` and `version` let a load tell our file from any other JSON. */
export interface StateFile {
  format: 'formctl-sandbox-state';
  version: 1;
  meta: Meta;
  counters: Counters;
  users: User[];
  tokens: Token[];
  workspaces: Workspace[];
  memberships: Membership[];
  invites: Invite[];
  forms: Form[];
  submissions: Submission[];
  integrations: Integration[];
  events: DispatchEvent[];
}
