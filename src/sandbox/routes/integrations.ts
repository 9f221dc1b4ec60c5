import { ok } from '../context.js';
import type { App, Ctx, RouteTable } from '../context.js';
import { HttpError, notFound } from '../errors.js';
import { flavorOf } from '../flavor.js';
import { logicProblem } from '../logic.js';
import { INTEGRATION_KINDS } from '../model.js';
import type { Form, Integration, WebhookData } from '../model.js';
import { checkWebhookUrl } from '../../service/addresses.js';
import { MIN_SECRET_LENGTH, WEBHOOK_STATUSES, type WebhookStatus, headerProblems } from '../../service/webhooks.js';
import { Errors, charLength, isObject } from '../validation.js';
import { formFor } from './common.js';

/** Header map rules (the service's, src/service/webhooks.ts), each problem under data.webhook_headers in the deployed server's words. */
function checkHeaders(app: App, errors: Errors, v: unknown): Record<string, string> {
  for (const p of headerProblems(v, flavorOf(app).headerLength)) errors.add('data.webhook_headers', p.message);
  return isObject(v) ? (v as Record<string, string>) : {};
}

interface Input {
  kind: string;
  /** Deployed flavour, a kind other than webhook: its `data` as sent. */
  raw?: Record<string, unknown>;
  status?: WebhookStatus;
  data: Partial<WebhookData>;
  logic?: Record<string, unknown> | null;
}

/**
 * Validates a create or update body. Create: integration_id, status, data and data.webhook_url are
 * required. Update (spec): status and every data field are optional; what is omitted is kept,
 * a supplied webhook_headers replaces all headers, and `null` clears the secret or the headers.
 */
async function validateInput(app: App, body: Record<string, unknown>, specMode: 'create' | 'update'): Promise<Input> {
  const errors = new Errors();
  const deployed = flavorOf(app).integrationsRebuilt;
  // Deployed flavour: update has the create rules (status and webhook_url required, docs/service.md).
  const mode = deployed ? 'create' : specMode;
  const input: Input = { kind: 'webhook', data: {} };
  if (body.integration_id === undefined || body.integration_id === null || body.integration_id === '') {
    // The deployed server fails before validation on a missing or unknown kind: a plain 500.
    if (deployed) throw new HttpError(500, 'Server Error');
    errors.add('integration_id', 'The integration id field is required.');
  } else if (deployed && (INTEGRATION_KINDS as readonly unknown[]).includes(body.integration_id)) {
    input.kind = body.integration_id as string;
  } else if (deployed) {
    throw new HttpError(500, 'Server Error');
  } else if (body.integration_id !== 'webhook') {
    errors.add('integration_id', 'The integration id must be "webhook".');
  }
  if (body.status === undefined && mode === 'update') {
    // omitted on update: unchanged (spec, Webhook integration status table)
  } else if (!(WEBHOOK_STATUSES as readonly unknown[]).includes(body.status)) {
    errors.add('status', body.status === undefined ? 'The status field is required.' : 'The selected status is invalid. Allowed: active, inactive.');
  } else input.status = body.status as Input['status'];

  const data = body.data;
  if (!isObject(data)) errors.add('data', 'The data field is required and must be an object.');
  else if (input.kind !== 'webhook') input.raw = data;
  else {
    if (data.webhook_url === undefined && mode === 'create') errors.add('data.webhook_url', 'The webhook url field is required.');
    else if (data.webhook_url !== undefined) {
      const check = await checkWebhookUrl(data.webhook_url, { allowPrivate: app.opts.allowPrivateWebhooks, lookup: app.opts.lookup });
      if (check.ok) input.data.webhook_url = data.webhook_url as string;
      else errors.add('data.webhook_url', check.message);
    }
    if (data.webhook_secret === null) input.data.webhook_secret = null;
    else if (data.webhook_secret !== undefined) {
      if (typeof data.webhook_secret !== 'string') errors.add('data.webhook_secret', 'The webhook secret field must be a string.');
      else if (charLength(data.webhook_secret) < MIN_SECRET_LENGTH)
        errors.add('data.webhook_secret', `The webhook secret field must be at least ${MIN_SECRET_LENGTH} characters.`);
      else input.data.webhook_secret = data.webhook_secret;
    }
    if (data.webhook_headers === null) input.data.webhook_headers = {};
    else if (data.webhook_headers !== undefined) input.data.webhook_headers = { ...checkHeaders(app, errors, data.webhook_headers) };
  }
  if (body.logic !== undefined) {
    const problem = logicProblem(body.logic);
    if (problem) errors.add('logic', problem);
    else input.logic = isObject(body.logic) && Object.keys(body.logic).length > 0 ? body.logic : null;
  } else if (deployed) input.logic = null; // `logic ?? []`: an omitted logic is erased
  errors.throwIfAny();
  return input;
}

function integrationOf(ctx: Ctx, form: Form): Integration {
  const raw = ctx.params.integration ?? '';
  const integration = /^\d{1,15}$/.test(raw) ? ctx.app.store.integrations.get(Number(raw)) : undefined;
  if (!integration || integration.form_id !== form.id) {
    throw notFound(flavorOf(ctx.app).missingIntegration);
  }
  return integration;
}

/** Stored `data` from validated input: a webhook's three keys (omitted ones empty), or another kind's data as sent. */
function dataOf(input: Input): WebhookData {
  if (input.raw) return input.raw as unknown as WebhookData;
  return { webhook_url: input.data.webhook_url!, webhook_secret: input.data.webhook_secret ?? null, webhook_headers: input.data.webhook_headers ?? {} };
}

/** Create / update / delete answers: the deployed server adds `type: "success"`. */
function answer(ctx: Ctx, message: string, integration?: Integration) {
  const flavor = flavorOf(ctx.app);
  return ok({ ...(flavor.successType ? { type: 'success' } : {}), message, ...(integration ? { form_integration: flavor.integrationView(integration) } : {}) });
}

/** Every integration route needs manage-integrations and a non-readonly member (docs/service-details.md, Authorization order). */
function formForIntegrations(ctx: Ctx): Form {
  return formFor(ctx, 'manage-integrations', 'manage integrations');
}

/** Webhook integrations: list, create, update, delete, dispatch events. */
export function registerIntegrations(r: RouteTable): void {
  r.api('GET', '/open/forms/:form/integrations', (ctx) => {
    const form = formForIntegrations(ctx);
    // Deployed flavour: every kind in one list (Slack, e-mail… beside webhooks).
    return ok(ctx.app.store.integrationsOf(form.id).map(flavorOf(ctx.app).integrationView));
  });

  r.api('POST', '/open/forms/:form/integrations', async (ctx) => {
    const { app } = ctx;
    const form = formForIntegrations(ctx);
    const input = await validateInput(app, await ctx.body(), 'create');
    const now = app.opts.now();
    const integration = app.store.addIntegration({
      id: app.store.nextId('integration'),
      form_id: form.id,
      integration_id: input.kind,
      status: input.status!,
      data: dataOf(input),
      logic: input.logic ?? null,
      created_at: now,
      updated_at: now,
    });
    return answer(ctx, 'Form Integration was created.', integration);
  });

  r.api('PUT', '/open/forms/:form/integrations/:integration', async (ctx) => {
    const form = formForIntegrations(ctx);
    const integration = integrationOf(ctx, form);
    const input = await validateInput(ctx.app, await ctx.body(), 'update');
    if (flavorOf(ctx.app).integrationsRebuilt) {
      // The deployed server rebuilds the integration from the body: what is omitted is erased.
      integration.integration_id = input.kind;
      integration.status = input.status!;
      integration.data = dataOf(input);
      integration.logic = input.logic ?? null;
    } else {
      if (input.status) integration.status = input.status;
      integration.data = { ...integration.data, ...input.data };
      if (input.logic !== undefined) integration.logic = input.logic;
    }
    integration.updated_at = ctx.app.opts.now();
    ctx.app.store.changed();
    return answer(ctx, 'Form Integration was updated.', integration);
  });

  r.api('DELETE', '/open/forms/:form/integrations/:integration', (ctx) => {
    const form = formForIntegrations(ctx);
    // Any kind goes, in both flavours: the id alone decides (the deployed server checks no kind).
    ctx.app.store.deleteIntegration(integrationOf(ctx, form).id);
    return answer(ctx, 'Form Integration was deleted.');
  });

  r.api('GET', '/open/forms/:form/integrations/:integration/events', (ctx) => {
    const form = formForIntegrations(ctx);
    const events = ctx.app.store.events.get(integrationOf(ctx, form).id) ?? [];
    // Newest first (spec); events are stored oldest first.
    return ok([...events].reverse().map(flavorOf(ctx.app).eventView));
  });
}
