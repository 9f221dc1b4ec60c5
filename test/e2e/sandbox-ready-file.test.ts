import { spawnTracked as spawn } from '../helpers/processes.js';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';

// `formctl sandbox --ready-file F` is the recipe for scripts (`--json | head -n1` never ends, since
// the sandbox keeps serving): start it in the background, wait for F, read the URL and token from
// it, stop it with kill. Run here as the README shows it, by bash with `formctl` on PATH.

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'formctl-ready-'));
  writeFileSync(join(dir, 'formctl'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(join(dir, 'formctl'), 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bash(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], {
      cwd: dir,
      env: { PATH: `${dir}:${process.env.PATH}`, HOME: dir, FORMCTL_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('formctl sandbox --ready-file, in a script', () => {
  it('the file appears once it listens (0600, with url, tokens and pid); kill (SIGTERM or SIGHUP) stops it with exit 0 and removes the file', async () => {
    // A non-interactive shell starts background jobs with SIGINT ignored, so scripts stop it with
    // a plain kill (SIGTERM); Ctrl-C (SIGINT) in a terminal is tested in sandbox-command.test.ts.
    // With --profile-name too: the config store's exit hooks re-raised SIGTERM, which ended the process by the signal (exit 143, file left).
    // SIGHUP (the terminal the sandbox was started from closed) stops it the same way.
    for (const [signal, extra] of [
      ['-TERM', ''],
      ['-TERM', ' --profile-name tmp'],
      ['-HUP', ''],
      ['-HUP', ' --profile-name tmp'],
    ]) {
      // A stale ready file from an earlier run (another pid) is not taken for this one, and is replaced.
      writeFileSync(join(dir, 'sandbox.json'), '{"url":"http://stale.invalid","pid":1}\n');
      const r = await bash(`set -euo pipefail
trap 'kill %1 2>/dev/null || true' EXIT
formctl sandbox --port 0 --rate-limit 0 --ready-file sandbox.json${extra} > sandbox.log &
until [ "$(jq -r .pid sandbox.json 2>/dev/null)" = "$!" ]; do sleep 0.1; done
stat -c %a sandbox.json
FORMCTL_BASE_URL=$(jq -r .url sandbox.json) FORMCTL_TOKEN=$(jq -r .tokens.all sandbox.json) formctl workspace list | cut -f2
[ "$(jq -r .pid sandbox.json)" = "$!" ] || { echo "pid mismatch" >&2; exit 1; }
kill ${signal} "$(jq -r .pid sandbox.json)"
wait $!
echo "sandbox exit $?"
[ -e sandbox.json ] && echo "file left" || echo "file removed"`);
      expect(r.stderr, signal).toBe('');
      expect(r.code, signal).toBe(0);
      expect(r.stdout, signal).toBe("600\nAda's Workspace\nsandbox exit 0\nfile removed\n");
    }
  });

  it('a sandbox leaves on exit a ready file that a later sandbox, given the same --ready-file, has replaced', async () => {
    rmSync(join(dir, 'shared.json'), { force: true });
    const r = await bash(`set -euo pipefail
trap 'kill %1 %2 2>/dev/null || true' EXIT
formctl sandbox --port 0 --rate-limit 0 --ready-file shared.json > first.log &
first=$!
until [ "$(jq -r .pid shared.json 2>/dev/null)" = "$first" ]; do sleep 0.1; done
formctl sandbox --port 0 --rate-limit 0 --ready-file shared.json > second.log &
second=$!
until [ "$(jq -r .pid shared.json 2>/dev/null)" = "$second" ]; do sleep 0.1; done
kill "$first"; wait "$first"
echo "first exit $?"
[ "$(jq -r .pid shared.json)" = "$second" ] && echo "second's file kept" || echo "file gone"
kill "$second"; wait "$second"
echo "second exit $?"
[ -e shared.json ] && echo "file left" || echo "file removed"`);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("first exit 0\nsecond's file kept\nsecond exit 0\nfile removed\n");
  });

  // Bad local input: exit 2, said before the sandbox starts.
  it('a --ready-file in a missing directory is a usage error (exit 2) and the sandbox does not start', async () => {
    const r = await bash('formctl sandbox --port 0 --rate-limit 0 --ready-file no-such-dir/sandbox.json');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: Cannot write --ready-file no-such-dir\/sandbox\.json: the directory no-such-dir does not exist\./);
    expect(r.stdout).toBe('');
    expect(existsSync(join(dir, 'no-such-dir'))).toBe(false);
    expect(statSync(dir).isDirectory()).toBe(true);
  });
});
