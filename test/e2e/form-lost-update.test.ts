import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { startCountingProxy } from '../helpers/counting-proxy.js';

// Two machines changing one form: the service has no conditional update, so a PUT from elsewhere
// that lands right after formctl's replaces its change. formctl reads the form again after its PUT
// and fails with exit 9, naming the backup, when the change is no longer there. Here a proxy sends
// "the other machine's" PUT, built from the form as it was before, right after formctl's.
const fx = useSandboxFixture({ seed: 1 });

describe('a form update replaced by another machine right after its PUT (built binary, sandbox)', () => {
  it('is exit 9 naming the backup, and an update nobody replaces is exit 0', async () => {
    const auth = { authorization: `Bearer ${fx.sb.tokens.all}`, 'content-type': 'application/json', accept: 'application/json' };
    const before = (await (await fetch(`${fx.sb.url}/open/forms/${fx.sb.formId}`, { headers: auth })).json()) as { title: string };
    let replace = true;
    const proxy = await startCountingProxy(fx.sb.url, (req) =>
      replace && req.method === 'PUT' && req.path === `/open/forms/${fx.sb.formId}`
        ? async (res, body) => {
            const ours = await fetch(`${fx.sb.url}${req.path}`, { method: 'PUT', headers: auth, body });
            const answer = await ours.text();
            // The other machine read the form before formctl's PUT: its body has the old title.
            const other = { ...(JSON.parse(body.toString('utf8')) as Record<string, unknown>), title: before.title, description: 'Set elsewhere' };
            const theirs = await fetch(`${fx.sb.url}${req.path}`, { method: 'PUT', headers: auth, body: JSON.stringify(other) });
            expect(theirs.status).toBe(200);
            res.writeHead(ours.status, { 'content-type': 'application/json' });
            res.end(answer);
          }
        : undefined,
    );
    try {
      const env = { ...fx.home.env, FORMCTL_BASE_URL: proxy.url, FORMCTL_TOKEN: fx.sb.tokens.all };
      const r = await runFormctl(['form', 'update', String(fx.sb.formId), '--title', 'Mine'], { env });
      expect(r.code, r.stderr).toBe(9);
      expect(r.stderr).toMatch(
        /error: Form \d+ was updated, but read again right after, it no longer holds the change \(title holds "[^"]+", not the "Mine" sent; /,
      );
      const backup = /The version before this update is in (\S+\.json)\./.exec(r.stderr)?.[1];
      expect(backup && existsSync(backup), r.stderr).toBe(true);

      replace = false;
      const ok = await runFormctl(['form', 'update', String(fx.sb.formId), '--title', 'Mine again'], { env });
      expect(ok.code, ok.stderr).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});
