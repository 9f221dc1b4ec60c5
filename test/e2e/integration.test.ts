import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

// The built binary lists the deployed flavour's seeded Slack and e-mail integrations beside the webhook.
describe('integration list (built binary, deployed flavour)', () => {
  const fx = useSandboxFixture({ flavor: 'deployed', seed: 1 });

  it('shows the seeded Slack and e-mail integrations, the Slack URL masked', async () => {
    const r = await runFormctl(['integration', 'list', String(fx.sb.formId)], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.split('\t').slice(1, 4))).toEqual([
      ['webhook', 'inactive', 'https://[3ffe::10]/formctl-demo'],
      ['slack', 'active', 'https://hooks.slack.com/services/T0000/B0000/••••'],
      ['email', 'active', 'to admin@example.com · subject "New form submission"'],
    ]);
  });

  it('the seeded webhook can be changed with no DNS: its URL is a literal address the service accepts as it is', async () => {
    const id = JSON.parse((await runFormctl(['webhook', 'list', String(fx.sb.formId), '--json', 'id'], { env: fx.env })).stdout) as { id: number }[];
    const r = await runFormctl(['webhook', 'update', String(fx.sb.formId), String(id[0]!.id), '--header', 'X-Env: demo'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const got = await runFormctl(['webhook', 'get', String(fx.sb.formId), String(id[0]!.id), '--json'], { env: fx.env });
    expect(JSON.parse(got.stdout)).toMatchObject({
      status: 'inactive',
      data: { webhook_url: 'https://[3ffe::10]/formctl-demo', webhook_headers: { 'X-Env': '••••' } },
    });
  });
});
