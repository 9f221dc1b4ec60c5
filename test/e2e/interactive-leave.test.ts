// `workspace leave` on a terminal asks to type the workspace's name (as `gh repo delete` does): a
// different answer cancels (exit 3), the name leaves. In a real terminal (tmux); skipped without it.
import { afterEach, describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { type TmuxSession, hasTmux, startTmux } from '../helpers/tmux.js';

const fx = useSandboxFixture({ seed: 1 });
const sessions: TmuxSession[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.kill();
});
const env = () => fx.env;

describe.skipIf(!hasTmux())('workspace leave in a real terminal (tmux)', () => {
  it('asks to type the name: another answer cancels (exit 3), the name leaves', async () => {
    const created = await runFormctl(['workspace', 'create', '--name', 'Shared', '--json', 'id'], { env: env() });
    expect(created.code, created.stderr).toBe(0);
    const id = String(JSON.parse(created.stdout).id);
    // A second admin, so leaving keeps the workspace managed.
    expect((await runFormctl(['member', 'add', 'bea@example.com', '--role', 'admin', '-w', id], { env: env() })).code).toBe(0);

    const first = startTmux(['workspace', 'leave', id], { env: env() });
    sessions.push(first);
    await first.waitForText(/Leave "Shared"\? You lose access to it\. Type its name Shared to confirm:/);
    first.type('shared');
    first.sendKeys('Enter');
    expect(await first.exitCode()).toBe(3);
    expect(first.screen()).toContain('Cancelled: "shared" is not its name Shared.');

    const second = startTmux(['workspace', 'leave', id], { env: env() });
    sessions.push(second);
    await second.waitForText(/Type its name Shared to confirm:/);
    second.type('Shared');
    second.sendKeys('Enter');
    expect(await second.exitCode()).toBe(0);
    expect(second.screen()).toContain('✓ You left "Shared".');
  });
});
