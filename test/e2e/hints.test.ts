import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

// Errors whose hint used to point the wrong way, from the built binary against the sandbox.

const fx = useSandboxFixture({ seed: 1 });

describe('hints that say what is wrong', () => {
  it('deleting your last workspace says so (exit 5), before any delete request, not a hint about token abilities', async () => {
    const r = await runFormctl(['workspace', 'delete', String(fx.sb.workspaceId), '--yes', '--debug'], { env: fx.env });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `error: You cannot delete your last workspace, "Ada's Workspace" (id ${fx.sb.workspaceId}).\nhint: Create another workspace first`,
    );
    expect(r.stderr).not.toMatch(/ability/);
    expect(r.stderr).not.toMatch(/DELETE /);
    const still = await runFormctl(['workspace', 'list', '--json', 'id'], { env: fx.env });
    expect(JSON.parse(still.stdout)).toEqual([{ id: fx.sb.workspaceId }]);
  });

  it('a form that is not found points at `form list -w`, and form get takes -w (for its picker)', async () => {
    const r = await runFormctl(['form', 'get', 'no-such-form'], { env: fx.env });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(
      "hint: Check the form id or slug: `formctl form list` shows the default workspace's forms, `formctl form list -w <workspace>` another's.",
    );
    const help = await runFormctl(['form', 'get', '--help'], { env: fx.env });
    expect(help.stdout).toMatch(/-w, --workspace <id>\s+Workspace to pick the form from/);
    const withW = await runFormctl(['form', 'view', String(fx.sb.formId), '-w', String(fx.sb.workspaceId), '--json', 'id'], { env: fx.env });
    expect(JSON.parse(withW.stdout)).toEqual({ id: fx.sb.formId });
  });

  it('auth status says a connection failure once: the status row points at the error line', async () => {
    // A closed port Node's fetch allows (it refuses the ports the Fetch standard blocks, 9 among them, before connecting).
    const port = await closedPort();
    const base = `http://127.0.0.1:${port}`;
    const r = await runFormctl(['auth', 'status'], { env: { ...fx.home.env, FORMCTL_BASE_URL: base, FORMCTL_TOKEN: 'abc' } });
    expect(r.code).toBe(11);
    expect(r.stdout).toContain('status\tnot working: cannot reach the service (see the error below)\n');
    const both = r.stdout + r.stderr;
    expect(both.match(/Connection refused/g)).toHaveLength(1);
    expect(r.stderr).toBe(
      `error: Connection refused by 127.0.0.1:${port} (GET /external/zapier/validate).\nhint: Is the service running, and is the base URL right? It comes from FORMCTL_BASE_URL.\n`,
    );

    const json = await runFormctl(['auth', 'status', '--json'], { env: { ...fx.home.env, FORMCTL_BASE_URL: base, FORMCTL_TOKEN: 'abc' } });
    expect(JSON.parse(json.stdout).error).toMatch(/^Connection refused/);
  });
});

/** A loopback port nothing listens on (listened on, then closed again). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
