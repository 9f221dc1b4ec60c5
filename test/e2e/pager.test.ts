// Long tables on a terminal go through the pager (FORMCTL_PAGER, then PAGER, then `less -FRX`); pipes,
// --json, --no-pager and a pager that cannot start print directly. In a real terminal (tmux); skipped without it.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { type TmuxSession, hasTmux, startTmux } from '../helpers/tmux.js';

const fx = useSandboxFixture({ seed: 40 });
let fakePager: string;
const sessions: TmuxSession[] = [];
beforeAll(() => {
  // A pager that keeps what it was given (and its arguments) in a file, and says so on the screen.
  fakePager = join(fx.home.dir, 'fake-pager');
  writeFileSync(fakePager, '#!/bin/sh\nprintf "%s\\n" "$*" > "$PAGED_FILE.args"\ncat > "$PAGED_FILE"\necho PAGED\n');
  chmodSync(fakePager, 0o755);
});
afterEach(() => {
  for (const s of sessions.splice(0)) s.kill();
});

let n = 0;
/** Runs `args` in a 100x20 terminal; returns the exit code, the screen and what the fake pager received (undefined: not paged). */
async function onTerminal(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  const file = join(fx.home.dir, `paged-${++n}`);
  const s = startTmux(args, { env: { ...fx.env, PAGED_FILE: file, ...extraEnv }, width: 100, height: 20 });
  sessions.push(s);
  const code = await s.exitCode();
  return {
    code,
    screen: s.screen(),
    paged: existsSync(file) ? readFileSync(file, 'utf8') : undefined,
    args: existsSync(`${file}.args`) ? readFileSync(`${file}.args`, 'utf8') : undefined,
  };
}

const list = () => ['submission', 'list', String(fx.sb.formId), '--all'];

describe.skipIf(!hasTmux())('pager', () => {
  it('FORMCTL_PAGER (with its arguments) gets a table longer than the terminal; PAGER is the fallback', async () => {
    const r = await onTerminal(list(), { FORMCTL_PAGER: `${fakePager} -x --y`, PAGER: '/nonexistent' });
    expect(r.code).toBe(0);
    expect(r.screen).toContain('PAGED');
    expect(r.args).toBe('-x --y\n');
    expect(r.paged!.split('\n').filter(Boolean)).toHaveLength(41);
    expect(r.paged).toMatch(/^ID\s+SUBMITTED/);
    const viaPager = await onTerminal(list(), { PAGER: fakePager });
    expect(viaPager.paged).toBe(r.paged);
  });

  it('the pager command is run by the shell, as git runs it: a quoted path with a space, quoted arguments, a VAR=value prefix', async () => {
    const dir = join(fx.home.dir, 'my pagers');
    mkdirSync(dir, { recursive: true });
    const spaced = join(dir, 'fake pager');
    // Each argument in brackets, so that a quoted one with a space shows as one.
    writeFileSync(spaced, '#!/bin/sh\nprintf "[%s]" "$@" > "$PAGED_FILE.args"\necho "$EXTRA" >> "$PAGED_FILE.args"\ncat > "$PAGED_FILE"\necho PAGED\n');
    chmodSync(spaced, 0o755);
    const r = await onTerminal(list(), { FORMCTL_PAGER: `EXTRA=set '${spaced}' -R 'two words'` });
    expect(r.code).toBe(0);
    expect(r.screen).toContain('PAGED');
    expect(r.args).toBe('[-R][two words]set\n');
    expect(r.paged!.split('\n').filter(Boolean)).toHaveLength(41);
    const viaPager = await onTerminal(list(), { PAGER: `"${spaced}"` });
    expect(viaPager.screen).toContain('PAGED');
    expect(viaPager.paged).toBe(r.paged);
  });

  it('a pager the shell cannot find or run leaves the table printed directly, exit 0', async () => {
    for (const pager of [`'${join(fx.home.dir, 'no such', 'pager')}' -R`, `${join(fx.home.dir, 'no-such-pager')} -R`, fx.home.dir]) {
      const r = await onTerminal(list(), { FORMCTL_PAGER: pager });
      expect(r.code, pager).toBe(0);
      expect(r.screen, pager).toMatch(/^1\s/m);
    }
  });

  it('a table that fits the terminal is printed directly', async () => {
    const r = await onTerminal(['workspace', 'list'], { FORMCTL_PAGER: fakePager });
    expect(r.code).toBe(0);
    expect(r.paged).toBeUndefined();
    expect(r.screen).toMatch(/ID\s+NAME/);
  });

  it('--no-pager, FORMCTL_PAGER=cat or empty, --json, --jq and --ndjson never page', async () => {
    for (const [args, env] of [
      [['--no-pager', ...list()], { FORMCTL_PAGER: fakePager }],
      [list(), { FORMCTL_PAGER: 'cat', PAGER: fakePager }],
      [list(), { FORMCTL_PAGER: '', PAGER: fakePager }],
      [[...list(), '--json', 'id'], { FORMCTL_PAGER: fakePager }],
      [[...list(), '--jq', '.[].id'], { FORMCTL_PAGER: fakePager }],
      [[...list(), '--ndjson'], { FORMCTL_PAGER: fakePager }],
    ] as const) {
      const r = await onTerminal([...args], env);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.paged, args.join(' ')).toBeUndefined();
    }
  });

  it('a pager that cannot start leaves the table printed directly, exit 0', async () => {
    const r = await onTerminal(list(), { FORMCTL_PAGER: join(fx.home.dir, 'no-such-pager') });
    expect(r.code).toBe(0);
    expect(r.screen).toMatch(/^1\s/m);
  });

  it('the default is less -FRX: q quits it, exit 0', async () => {
    const s = startTmux(list(), { env: fx.env, width: 100, height: 20 });
    sessions.push(s);
    await s.waitForText(/^:\s*$/m);
    s.sendKeys('q');
    expect(await s.exitCode()).toBe(0);
  });

  it('piped output is never paged', async () => {
    const file = join(fx.home.dir, 'piped');
    const r = await runFormctl(list(), { env: { ...fx.env, FORMCTL_PAGER: fakePager, PAGED_FILE: file } });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(40);
    expect(existsSync(file)).toBe(false);
  });
});
