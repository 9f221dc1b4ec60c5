import { beforeAll, describe, expect, it } from 'vitest';
import { type RunResult, runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { answer, call, createForm } from '../sandbox/helpers.js';

// One rule for every list, from the built binary: --json and --ndjson carry every record unless
// --limit is given; a table or TSV shows the first 30 and says on stderr that there are more.

const N = 34; // more than the 30 a table shows

const fx = useSandboxFixture({ seed: N, allowPrivateWebhooks: true });
let ws: string;
let slug: string;
let hookId: number;

async function ok(res: Promise<{ status: number; text: string }>): Promise<void> {
  const r = await res;
  if (r.status >= 300) throw new Error(`seeding failed: ${r.status} ${r.text}`);
}

beforeAll(async () => {
  ws = String(fx.sb.workspaceId);
  slug = fx.sb.formSlug!;
  const formId = fx.sb.formId!;
  const hook = await call(fx.sb, 'POST', `/open/forms/${formId}/integrations`, {
    integration_id: 'webhook',
    status: 'active',
    // Nothing listens on port 9 (discard): every delivery fails fast and leaves a record.
    data: { webhook_url: 'http://127.0.0.1:9/hook' },
  });
  hookId = hook.json.form_integration.id;
  for (let i = 0; i < N; i++) await ok(answer(fx.sb, slug, { name: `Answer ${i}` }));
  await fx.sb.admin.deliveries();
  for (let i = 1; i < N; i++) {
    await ok(
      call(fx.sb, 'POST', `/open/forms/${formId}/integrations`, {
        integration_id: 'webhook',
        status: 'active',
        data: { webhook_url: `http://127.0.0.1:9/h${i}` },
      }),
    );
  }
  for (let i = 1; i < N; i++) await createForm(fx.sb, { title: `Form ${i}` });
  for (let i = 1; i < N; i++) await ok(call(fx.sb, 'POST', '/open/workspaces/create', { name: `Workspace ${i}`, emoji: '🧪' }));
  for (let i = 1; i < N; i++) {
    const email = `member${i}@example.com`;
    fx.sb.admin.createUser({ email, name: `Member ${i}` });
    await ok(call(fx.sb, 'POST', `/open/workspaces/${ws}/users/add`, { email, role: 'user' }));
    await ok(call(fx.sb, 'POST', `/open/workspaces/${ws}/users/add`, { email: `invitee${i}@example.com`, role: 'user' }));
  }
});

function cli(args: string[]): Promise<RunResult> {
  return runFormctl(args, { env: { ...fx.env, FORMCTL_WORKSPACE: ws } });
}

const lines = (s: string) => s.split('\n').filter(Boolean);

const LISTS: Array<{ name: string; args: () => string[]; things: string; total: number }> = [
  { name: 'workspace list', args: () => ['workspace', 'list'], things: 'workspaces', total: N },
  { name: 'form list', args: () => ['form', 'list'], things: 'forms', total: N },
  { name: 'form list-all', args: () => ['form', 'list-all'], things: 'forms', total: N },
  { name: 'submission list', args: () => ['submission', 'list', slug], things: 'submissions', total: 2 * N },
  { name: 'member list', args: () => ['member', 'list'], things: 'members', total: N },
  { name: 'invite list', args: () => ['invite', 'list'], things: 'invites', total: N - 1 },
  { name: 'webhook list', args: () => ['webhook', 'list', slug], things: 'webhooks', total: N },
  { name: 'webhook events', args: () => ['webhook', 'events', slug, String(hookId)], things: 'delivery records', total: N },
];

describe.each(LISTS)('$name', ({ args, things, total }) => {
  it(`--json and --ndjson return all ${total}; TSV shows 30 with a note; --limit cuts every format`, async () => {
    const json = await cli([...args(), '--json', 'id']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toHaveLength(total);
    expect(json.stderr).not.toMatch(/showing the first/);

    const ndjson = await cli([...args(), '--ndjson']);
    expect(ndjson.code, ndjson.stderr).toBe(0);
    expect(lines(ndjson.stdout)).toHaveLength(total);

    const tsv = await cli(args());
    expect(tsv.code, tsv.stderr).toBe(0);
    expect(lines(tsv.stdout)).toHaveLength(30);
    expect(tsv.stderr).toContain(`note: showing the first 30 ${things}; pass --all or --limit N for more.`);

    const all = await cli([...args(), '--all']);
    expect(lines(all.stdout)).toHaveLength(total);
    expect(all.stderr).not.toMatch(/showing the first/);

    const five = await cli([...args(), '--limit', '5', '--json', 'id']);
    expect(five.code, five.stderr).toBe(0);
    expect(JSON.parse(five.stdout)).toHaveLength(5);

    const both = await cli([...args(), '--all', '--limit', '5']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('error: Use either --all or --limit, not both.');
  });
});
