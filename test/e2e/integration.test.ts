import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';

// The built binary lists the deployed flavour's seeded Slack and e-mail integrations beside the webhook.
describe('integration list (built binary, deployed flavour)', () => {
  let sb: TestSandbox;
  let home: ReturnType<typeof tempHome>;
  beforeAll(async () => {
    sb = await startTestSandbox({ flavor: 'deployed', seed: 1 });
    home = tempHome();
  });
  afterAll(async () => {
    await sb.close();
    home.cleanup();
  });

  it('shows the seeded Slack and e-mail integrations, the Slack URL masked', async () => {
    const r = await runFormctl(['integration', 'list', String(sb.formId)], { env: { ...home.env, ...sb.env } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.split('\t').slice(1, 4))).toEqual([
      ['webhook', 'inactive', 'https://hooks.example.com/formctl-demo'],
      ['slack', 'active', 'https://hooks.slack.com/services/T0000/B0000/••••'],
      ['email', 'active', 'to admin@example.com · subject "New form submission"'],
    ]);
  });
});
