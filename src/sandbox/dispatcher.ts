import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { ResolvedOptions } from './context.js';
import { FLAVOR_RULES } from './flavor.js';
import { isLayoutBlock } from '../service/forms.js';
import { logicAllows } from './logic.js';
import type { DispatchEvent, Form, Integration, Submission } from './model.js';
import { checkWebhookUrl } from '../service/addresses.js';
import { SIGNATURE_HEADER, signBody } from '../service/webhooks.js';
import type { Store } from './store.js';

const DEPRECATION = 'Please do not use the `submission` field. It is deprecated and will be removed in the future.';

/**
 * The delivery body, keys in the deployed order (docs/service-details.md, Webhook deliveries): the spec's form_id, form_title,
 * submission and submission_id, plus form_slug, data {id: {value, name, type}} and message.
 */
function webhookPayload(form: Form, sub: Submission): Record<string, unknown> {
  const byName: Record<string, unknown> = {};
  const byId: Record<string, unknown> = {};
  for (const p of form.properties) {
    if (isLayoutBlock(p)) continue;
    const value = sub.data[p.id] ?? null;
    byName[p.name] = value;
    byId[p.id] = { value, name: p.name, type: p.type };
  }
  return {
    form_id: form.id,
    form_title: form.attrs.title,
    form_slug: form.slug,
    submission: byName,
    data: byId,
    message: DEPRECATION,
    submission_id: sub.id,
  };
}

type Outcome = Pick<DispatchEvent, 'status' | 'response_code' | 'error_message'>;

/**
 * Delivers `submission.created` to every active webhook of a form whose logic allows it, in the
 * background (the answer response never waits). One attempt each, no retries, no redirects,
 * a timeout, the URL re-checked before the attempt and the connection pinned to the checked address.
 * Every attempt becomes a dispatch event record.
 */
export class Dispatcher {
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly opts: ResolvedOptions,
  ) {}

  /**
   * Queues deliveries for a new submission (and, in the deployed flavour, for an updated one: the
   * server fires every active integration again). Deployed flavour: integrations of other kinds
   * (Slack, e-mail…) are not contacted but record a successful event, and logic that says no also
   * records a success, as the deployed server does.
   */
  submissionCreated(form: Form, sub: Submission): void {
    let body: Buffer | undefined;
    const deployed = FLAVOR_RULES[this.opts.flavor].recordsUnsentDeliveries;
    for (const integration of this.store.integrationsOf(form.id)) {
      if (integration.status !== 'active') continue;
      const allowed = logicAllows(integration.logic, sub.data);
      if (deployed && (integration.integration_id !== 'webhook' || !allowed)) {
        this.record(integration, { status: 'success', response_code: null, error_message: null }, allowed ? { sent_to: integration.integration_id } : null);
        continue;
      }
      // Logic that does not match means no attempt, so no event either (spec: events record attempts).
      if (!allowed) continue;
      body ??= Buffer.from(JSON.stringify(webhookPayload(form, sub)), 'utf8');
      const p: Promise<void> = this.deliver(integration, body).finally(() => this.inflight.delete(p));
      this.inflight.add(p);
    }
  }

  /** Resolves once every queued delivery has finished and been recorded. */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  private async deliver(integration: Integration, body: Buffer): Promise<void> {
    // Settings as they are at dispatch time: a secret rotated afterwards applies to later deliveries.
    const { webhook_url: url, webhook_secret: secret, webhook_headers: custom } = integration.data;
    let outcome: Outcome;
    const check = await checkWebhookUrl(url, { allowPrivate: this.opts.allowPrivateWebhooks, lookup: this.opts.lookup });
    if (!check.ok) outcome = { status: 'failed', response_code: null, error_message: `Not delivered: ${check.message}` };
    else {
      const headers: Record<string, string | number> = {
        ...custom,
        'Content-Type': 'application/json',
        'Content-Length': body.length,
        'User-Agent': 'formctl-sandbox-webhooks/1',
      };
      if (secret) headers[SIGNATURE_HEADER] = signBody(secret, body);
      outcome = await this.post(check.url, check.addresses[0]!, headers, body);
    }
    this.record(integration, outcome);
  }

  private record(integration: Integration, outcome: Outcome, data?: Record<string, unknown> | null): void {
    this.store.addEvent({
      id: this.store.nextId('event'),
      integration_id: integration.id,
      event: 'submission.created',
      ...outcome,
      created_at: this.opts.now(),
      ...(data !== undefined ? { data } : {}),
    });
  }

  private post(url: URL, pinned: LookupAddress, headers: Record<string, string | number>, body: Buffer): Promise<Outcome> {
    const timeoutMs = this.opts.webhookTimeoutMs;
    return new Promise((resolve) => {
      let settled = false;
      const done = (o: Outcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(o);
      };
      const mod = url.protocol === 'https:' ? https : http;
      let req: http.ClientRequest;
      try {
        req = mod.request(
          {
            method: 'POST',
            hostname: url.hostname.replace(/^\[|\]$/g, ''),
            port: url.port || undefined,
            path: `${url.pathname}${url.search}`,
            headers,
            agent: false,
            // Connect to the address that passed the check, not to whatever a second lookup returns.
            lookup: (_host, options, cb) => {
              if ((options as { all?: boolean }).all) (cb as (e: null, a: LookupAddress[]) => void)(null, [pinned]);
              else (cb as (e: null, a: string, f: number) => void)(null, pinned.address, pinned.family);
            },
          },
          (res) => {
            const code = res.statusCode ?? 0;
            res.resume();
            res.on('error', () => {});
            res.on('end', () => {
              if (code >= 200 && code < 300) done({ status: 'success', response_code: code, error_message: null });
              else if (code >= 300 && code < 400) {
                const where = res.headers.location ? ` to ${res.headers.location}` : '';
                done({ status: 'failed', response_code: code, error_message: `The endpoint answered ${code} (redirect${where}); redirects are not followed.` });
              } else done({ status: 'failed', response_code: code, error_message: `The endpoint answered HTTP ${code}.` });
            });
          },
        );
      } catch (err) {
        // Node refuses some requests before sending (e.g. ERR_INVALID_CHAR for a stored header value):
        // a failed attempt like any other, never an unhandled rejection that stops the sandbox.
        resolve({ status: 'failed', response_code: null, error_message: `Not delivered: ${(err as Error).message}` });
        return;
      }
      const timer = setTimeout(() => {
        done({ status: 'timeout', response_code: null, error_message: `No complete response within ${timeoutMs} ms.` });
        req.destroy();
      }, timeoutMs);
      req.on('error', (err) => done({ status: 'failed', response_code: null, error_message: err.message }));
      req.end(body);
    });
  }
}
