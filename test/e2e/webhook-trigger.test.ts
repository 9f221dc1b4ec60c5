import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { type StubServer, json, startStubServer } from '../helpers/http.js';
import { FLAVORS } from '../helpers/sandbox.js';
import { verifySignature } from '../../src/webhooks/signature.js';

// `webhook trigger` answers the form through its public route, so a real delivery reaches the receiver,
// signed with the webhook's secret: end to end, from the built binary, on both sandbox flavours.
let home: ReturnType<typeof tempHome>;
beforeAll(() => {
  home = tempHome();
});
afterAll(() => home.cleanup());

describe.each(FLAVORS)('%s flavour', (flavor) => {
  const fx = useSandboxFixture({ flavor, seed: 1, allowPrivateWebhooks: true, perTest: true });
  let receiver: StubServer;
  const cli = (args: string[]) => runFormctl(args, { env: fx.env });

  beforeEach(async () => {
    receiver = await startStubServer((_req, res) => json(res, 200, { ok: true }));
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('a triggered answer is delivered, signed, with the answers given and a sample for a required field left out', async () => {
    const secret = 'trigger-test-secret-0123456789';
    const file = join(fx.home.dir, `secret-${flavor}.txt`);
    writeFileSync(file, secret);
    const form = String(fx.sb.formId);
    const created = await cli(['webhook', 'create', form, '--url', `${receiver.url}/hook`, '--secret-file', file, '--allow-private']);
    expect(created.code, created.stderr).toBe(0);

    const r = await cli(['webhook', 'trigger', form, '--data', 'Rating=4', '--data', 'email=ada@example.com', '--json', 'answers']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ answers: { rating: 4, email: 'ada@example.com', name: 'Sample name' } });
    expect(r.stderr).toBe('note: sample values for the required field not given: Name.\n');

    await fx.sb.admin.deliveries();
    expect(receiver.requests).toHaveLength(1);
    const delivery = receiver.requests[0]!;
    expect(delivery.method).toBe('POST');
    expect(delivery.headers.authorization).toBeUndefined();
    expect(verifySignature(secret, delivery.body, String(delivery.headers['x-webhook-signature'])).valid).toBe(true);
    expect(JSON.parse(delivery.body)).toMatchObject({ form_id: fx.sb.formId });
  });

  it('an unknown field or a value of the wrong type is refused before anything is sent (exit 2)', async () => {
    const form = String(fx.sb.formId);
    const unknown = await cli(['webhook', 'trigger', form, '--data', 'nope=1']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: Unknown field "nope" in form /);
    const typed = await cli(['webhook', 'trigger', form, '--data', 'rating=lots']);
    expect(typed.code).toBe(2);
    const list = await cli(['submission', 'list', form, '--json', 'submission_id']);
    expect(JSON.parse(list.stdout)).toHaveLength(1);
  });
});

// A 200 that is not the service's JSON answer (a proxy's HTML page) is no proof the answer was saved:
// exit 1, never a success line.
describe('webhook trigger against a garbage 200', () => {
  it('an HTML page answering the public route is exit 1 naming it, not success', async () => {
    const stub = await startStubServer((req, res) => {
      if (req.method === 'GET') return json(res, 200, { id: 7, slug: 'contact', title: 'Contact', visibility: 'public', properties: [] });
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><body>Service unavailable</body></html>');
    });
    try {
      const r = await runFormctl(['webhook', 'trigger', '7'], { env: { ...home.env, FORMCTL_BASE_URL: stub.url, FORMCTL_TOKEN: 't' } });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('it sent an HTML page');
      expect(r.stderr).toContain('hint: The service may have applied the POST anyway');
      expect(r.stdout).toBe('');
    } finally {
      await stub.close();
    }
  });
});
