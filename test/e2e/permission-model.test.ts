// Node's permission model (`--permission`; `--experimental-permission` on Node 20), turned on through
// NODE_OPTIONS for the built binary: it disables fsync outright, which formctl's safe saves need, and
// on Node lines that have `--allow-net` it refuses every connection unless that flag is given. Both
// are one-line errors with their exit codes, never a retry or a network error for a file problem.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

const major = Number(process.versions.node.split('.')[0]);
const PERMISSION = `${major >= 22 ? '--permission' : '--experimental-permission'} --allow-fs-read=* --allow-fs-write=*`;
const HAS_ALLOW_NET = process.allowedNodeEnvironmentFlags.has('--allow-net');
const NODE_OPTIONS = HAS_ALLOW_NET ? `${PERMISSION} --allow-net` : PERMISSION;

/** Whether this Node's permission model refuses an fsync through a FileHandle (Node 26 does; 20–24 do not). */
function fsyncRefused(dir: string): boolean {
  const probe = `require('node:fs/promises').open(${JSON.stringify(join(dir, 'probe'))}, 'w').then((f) => f.sync()).then(() => console.log('ok'), (e) => console.log(e.code))`;
  const r = spawnSync(process.execPath, ['-e', probe], { env: { PATH: process.env.PATH, NODE_OPTIONS }, encoding: 'utf8' });
  return r.stdout.trim() === 'ERR_ACCESS_DENIED';
}

describe("Node's permission model (e2e, built binary)", () => {
  const fx = useSandboxFixture({ seed: 3 });

  it('an export to a file: where Node refuses fsync, "Cannot write …: Node\'s permission model refused it", exit 1, nothing left; elsewhere it is saved', async () => {
    const out = join(fx.home.dir, 'pm.csv');
    const refused = fsyncRefused(fx.home.dir);
    const r = await runFormctl(['submission', 'export', String(fx.sb.formId), '-o', out], { env: { ...fx.env, NODE_OPTIONS } });
    expect(r.stderr).not.toMatch(/^\s+at /m);
    if (refused) {
      expect(r.stderr).toContain(`error: Cannot write ${out}: Node's permission model refused it (fsync API is disabled when Permission Model is enabled).\n`);
      expect(r.stderr).toContain(
        "hint: formctl saves files with fsync, which Node's --permission disables: run it without --permission, or write the CSV to stdout with -o -.\n",
      );
      expect(r.code).toBe(1);
      expect(existsSync(out)).toBe(false);
      expect(readdirSync(fx.home.dir).filter((f) => f.startsWith('pm.csv'))).toEqual([]);
    } else {
      expect(r.stderr).not.toContain('error:');
      expect(r.code).toBe(0);
      expect(readFileSync(out, 'utf8').split('\n')[0]).toContain('Name');
    }
  });

  it.runIf(HAS_ALLOW_NET)('without --allow-net: the refused connection is said once, with the flag to give, exit 11, no retry', async () => {
    const r = await runFormctl(['workspace', 'list'], { env: { ...fx.env, NODE_OPTIONS: PERMISSION } });
    expect(r.stderr).toContain("error: Node's permission model refused the connection to ");
    expect(r.stderr).toContain(
      "hint: formctl runs under Node's --permission (in the command or NODE_OPTIONS): allow the network with --allow-net, or run it without --permission.\n",
    );
    expect(r.stderr).not.toContain('retrying');
    expect(r.code).toBe(11);
  });
});
