import { randomUUID } from 'node:crypto';
import { newTokenString } from './auth.js';
import type { App } from './context.js';
import { SandboxError } from './errors.js';
import { validateFormInput } from './form-rules.js';
import { ABILITIES } from './model.js';
import type { Ability, FormProperty } from './model.js';
import { createForm } from './routes/forms.js';
import { Store } from './store.js';
import { ensureUser } from './users.js';
import { Errors } from './validation.js';
import type { WebhookStatus } from '../service/webhooks.js';
import { flavorOf } from './flavor.js';

/** The narrower seeded tokens exist to exercise 403s (docs/service-details.md, Abilities). */
const TOKEN_ABILITIES: Record<'all' | 'readonly' | 'forms' | 'noIntegrations', Ability[]> = {
  all: [...ABILITIES],
  readonly: ABILITIES.filter((a) => a.endsWith('-read')),
  forms: ['forms-read', 'forms-write'],
  noIntegrations: ABILITIES.filter((a) => a !== 'manage-integrations'),
};

/** The seeded colleague: an account of her own, not yet a member of Ada's workspace (docs/service.md). */
export const COLLEAGUE = { name: 'Bea Builder', email: 'bea@example.com' };

/**
 * A fresh state: Ada Admin, her workspace, and four tokens of different reach; unless `colleague`
 * is false (a Community instance, whose second seat must stay free), also Bea with her own
 * all-abilities token, so that adding an existing user, changing another member's role and removing
 * another member can be tried at once.
 */
export function initialStore(now: number, colleague = true): Store {
  const store = new Store();
  const admin = store.addUser({ id: store.nextId('user'), name: 'Ada Admin', email: 'admin@example.com', created_at: now });
  const ws = store.createWorkspace("Ada's Workspace", '🧪', admin.id, now);
  const tokens = { all: '', readonly: '', forms: '', noIntegrations: '' };
  for (const [kind, abilities] of Object.entries(TOKEN_ABILITIES) as [keyof typeof tokens, Ability[]][]) {
    tokens[kind] = store.addToken({ token: newTokenString(), user_id: admin.id, name: `sandbox-${kind}`, abilities }).token;
  }
  store.meta = { adminUserId: admin.id, workspaceId: ws.id, tokens, users: [{ user_id: admin.id, token: tokens.all }] };
  if (colleague) ensureUser(store, COLLEAGUE.email, now, COLLEAGUE.name);
  return store;
}

const DEMO_PROPERTIES: FormProperty[] = [
  { id: 'name', type: 'text', name: 'Name', required: true },
  { id: 'email', type: 'email', name: 'Email', required: false },
  { id: 'rating', type: 'rating', name: 'Rating', required: false, rating_max_value: 5 },
  { id: 'comments', type: 'text', name: 'Comments', required: false, multi_lines: true },
];
const NAMES = ['Grace Hopper', 'Alan Turing', 'Katherine Johnson', 'Edsger Dijkstra', 'Barbara Liskov', 'Donald Knuth', 'Radia Perlman'];
const COMMENTS = ['Quick and clear.', 'Could be shorter.', 'Loved it, thanks!', '', 'The second page was confusing, but fine overall.'];

/**
 * The demo form with `count` submissions, one a minute up to now. Created once: a restart with the
 * same data file finds it again through meta.demoFormId.
 */
export function ensureDemoForm(app: App, count: number): { id: number; slug: string } {
  const existing = app.store.meta.demoFormId === undefined ? undefined : app.store.forms.get(app.store.meta.demoFormId);
  if (existing) return { id: existing.id, slug: existing.slug };
  const errors = new Errors();
  const input = validateFormInput(
    { title: 'Customer feedback (demo)', visibility: 'public', language: 'en', properties: structuredClone(DEMO_PROPERTIES), tags: ['demo'] },
    'create',
    errors,
  );
  if (!errors.empty) throw new SandboxError(`Internal error: the demo form is invalid: ${JSON.stringify(errors.map)}`);
  const form = createForm(app, app.store.meta.workspaceId, input.attrs, input.properties);
  const now = app.opts.now();
  for (let i = 0; i < count; i++) {
    const name = NAMES[i % NAMES.length]!;
    app.store.addSubmission({
      id: app.store.nextId('submission'),
      form_id: form.id,
      data: {
        name,
        email: `${name.split(' ')[0]!.toLowerCase()}${i}@example.com`,
        rating: (i % 5) + 1,
        comments: COMMENTS[i % COMMENTS.length]!,
      },
      // A minute apart; three to a second when the sandbox shows how same-second answers move in the list.
      created_at: app.opts.unstableTies && flavorOf(app).unstableTies ? now - (Math.floor((count - 1 - i) / 3) + 1) * 1000 : now - (count - i) * 60_000,
      uuid: randomUUID(),
      status: 'completed',
      completion_time: 30 + ((i * 7) % 90),
    });
  }
  if (flavorOf(app).seedsOtherKinds) seedIntegrations(app, form.id);
  app.store.meta.demoFormId = form.id;
  app.store.changed();
  return { id: form.id, slug: form.slug };
}

/**
 * Deployed flavour: the demo form gets integrations of three kinds in one list, so that commands
 * meant for webhooks can be tried on ids that are not webhooks: an inactive webhook (no traffic
 * leaves the machine; see SEEDED_WEBHOOK_URL), and an active Slack and an active e-mail integration, which record an event
 * each time they fire (on every new or updated submission) without contacting anyone.
 */
/**
 * The seeded webhook's URL: a literal address, so that the URL check (done again on every update,
 * which sends the stored URL back) passes with no DNS, on a machine without outside name resolution
 * too. The address is public to that check (global unicast), yet in 3ffe::/16, the former 6bone
 * prefix returned to IANA (RFC 3701) and routed nowhere: a delivery, should someone activate the
 * webhook, fails here (no route) without reaching anyone.
 */
export const SEEDED_WEBHOOK_URL = 'https://[3ffe::10]/formctl-demo';

function seedIntegrations(app: App, formId: number): void {
  const now = app.opts.now();
  const add = (integration_id: string, status: WebhookStatus, data: Record<string, unknown>) =>
    app.store.addIntegration({
      id: app.store.nextId('integration'),
      form_id: formId,
      integration_id,
      status,
      data: data as never,
      logic: null,
      created_at: now,
      updated_at: now,
    });
  add('webhook', 'inactive', { webhook_url: SEEDED_WEBHOOK_URL, webhook_secret: null, webhook_headers: {} });
  add('slack', 'active', { slack_webhook_url: 'https://hooks.slack.com/services/T0000/B0000/sandbox' });
  add('email', 'active', { send_to: 'admin@example.com', sender_name: 'OpnForm', subject: 'New form submission', include_submission_data: true });
}
