import { describe, expect, it } from 'vitest';
import { useSandboxFixture } from '../../helpers/fixture.js';
import { runInProcess } from '../../helpers/run-cli.js';
import { FLAVORS } from '../../helpers/sandbox.js';

// Integrations of every kind in one list (docs/webhooks-and-members.md, "Integrations of every kind").
describe.each(FLAVORS)('integration list (%s flavour)', (flavor) => {
  const fx = useSandboxFixture({ flavor, seed: 1, allowPrivateWebhooks: true });

  it('shows every kind with its status and a one-line summary, secrets masked', async () => {
    if (flavor === 'spec') {
      // The spec's service has webhooks only; the seeded form has none.
      const none = await runInProcess(['integration', 'list', String(fx.sb.formId)], { env: fx.env });
      expect(none).toMatchObject({ code: 0, stdout: '' });
      const hook = await runInProcess(['webhook', 'create', String(fx.sb.formId), '--allow-private', '--url', 'http://127.0.0.1:9/in?token=abcdef123456'], {
        env: fx.env,
      });
      expect(hook.code, hook.stderr).toBe(0);
    }
    const r = await runInProcess(['integration', 'list', String(fx.sb.formId), '--json', 'kind,status,summary'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(
      flavor === 'deployed'
        ? [
            { kind: 'webhook', status: 'inactive', summary: 'https://[3ffe::10]/formctl-demo' },
            { kind: 'slack', status: 'active', summary: 'https://hooks.slack.com/services/T0000/B0000/••••' },
            { kind: 'email', status: 'active', summary: 'to admin@example.com · subject "New form submission"' },
          ]
        : [{ kind: 'webhook', status: 'active', summary: 'http://127.0.0.1:9/in?token=••••3456' }],
    );
    expect(r.stdout).not.toContain('/sandbox"');
    expect(r.stdout).not.toContain('abcdef123456');
    const tsv = await runInProcess(['integration', 'list', String(fx.sb.formId)], { env: fx.env });
    expect(tsv.stdout.split('\n')[0]).toMatch(
      flavor === 'deployed' ? /^\d+\twebhook\tinactive\thttps:\/\/\[3ffe::10\]\/formctl-demo\t/ : /^\d+\twebhook\tactive\t/,
    );
  });
});
