import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

const fx = useSandboxFixture({ seed: 1, env: (sb) => ({ FORMCTL_WORKSPACE: String(sb.workspaceId) }) });

async function formNow(id: number): Promise<Record<string, unknown>> {
  const r = await runFormctl(['form', 'get', String(id), '--json', 'title,description'], { env: fx.env });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

describe('two form updates of one form at the same moment (built binary, sandbox)', () => {
  it('20 rounds, different fields: never both exit 0 with one change lost', async () => {
    const created = await runFormctl(['form', 'create', '--title', 'Race', '--field', 'Name'], { env: fx.env });
    expect(created.code).toBe(0);
    const id = Number(created.stdout.split('\t')[0]);
    const outcomes: string[] = [];
    for (let round = 0; round < 20; round++) {
      const title = `Race ${round}`;
      const description = `Description ${round}`;
      const [a, b] = await Promise.all([
        runFormctl(['form', 'update', String(id), '--title', title], { env: fx.env, timeoutMs: 60_000 }),
        runFormctl(['form', 'update', String(id), '--set', `description=${description}`], { env: fx.env, timeoutMs: 60_000 }),
      ]);
      for (const r of [a, b]) expect([0, 9], r.stderr).toContain(r.code);
      const form = await formNow(id);
      if (a.code === 0 && b.code === 0) {
        // Both said they updated: both changes must be there.
        expect(form, `round ${round}`).toEqual({ title, description });
      }
      outcomes.push(`${a.code}${b.code}`);
    }
    // The lock serialises them, so neither sees the other's change as a conflict either.
    expect(outcomes.filter((o) => o !== '00')).toEqual([]);
  }, 180_000);
});
