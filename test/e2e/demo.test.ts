// `npm run demo` (after the build): the whole narrated tour must pass, and it must leave nothing
// behind: no temp directory, no sandbox and no receiver still listening, also after Ctrl-C.
import { processesWith, spawnTracked as spawn } from '../helpers/processes.js';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { sandboxForTest } from '../helpers/fixture.js';

interface DemoRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
}

/** Runs scripts/demo.mjs as CI would; `onOutput` may act on the output so far (e.g. send Ctrl-C). */
function runDemo(onOutput?: (out: string, child: ReturnType<typeof spawn>) => void): Promise<DemoRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'demo.mjs')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, CI: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString('utf8');
      onOutput?.(out, child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => child.kill('SIGKILL'), 110_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out });
    });
  });
}

/** Resolves true when something accepts connections on the URL's port. */
function listening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The temp dir, sandbox URL and receiver URL the demo announced. */
function started(out: string): { tmp: string; sandbox: string; receiver: string } {
  return {
    tmp: /config lives in (\S+) and is removed/.exec(out)![1]!,
    sandbox: /Sandbox listening on (http:\/\/\S+)/.exec(out)![1]!,
    receiver: /^Listening on (http:\/\/\S+)/m.exec(out)![1]!,
  };
}

// Each case runs the real tour (a sandbox, a receiver, a dozen formctl processes): on a loaded
// machine that takes longer than vitest's 30 s default, so they share runDemo's budget.
describe('npm run demo', { timeout: 120_000 }, () => {
  it('runs the whole tour with real output, exit 0, and cleans up', async () => {
    const r = await runDemo();
    expect(r.code, r.out).toBe(0);
    const titles = [
      'Log in',
      'Create a workspace',
      'Create a form from examples/contact-form.json',
      'Add a member',
      'Create a signed webhook',
      'Post three public answers',
      'Show the verified deliveries and the event log',
      'List submissions',
      'Export the answers to CSV',
      'Update the form safely, with a diff',
      'Clean up',
    ];
    titles.forEach((t, i) => expect(r.out).toContain(`━━ ${i + 1}/${titles.length} ${t}\n`));
    expect(r.out).toContain('$ formctl auth login --with-token --base-url http://127.0.0.1:');
    expect(r.out).toMatch(/\$ formctl form create --file examples\/contact-form.json/);
    expect(r.out.match(/^ {2}signature valid$/gm)).toHaveLength(3);
    expect(r.out.match(/\tsuccess\t200\tsubmission\.created\t/g)).toHaveLength(3);
    expect(r.out).toMatch(/^\uFEFF?id,Your name,Email,Topic,Message,created_at$/m);
    expect(r.out).toContain('-  "title": "Contact us",\n+  "title": "Contact us (updated by the demo)",');
    expect(r.out).toContain('✓ all 11 steps passed');
    expect(r.out).not.toContain('✗');
    const { tmp, sandbox, receiver } = started(r.out);
    expect(existsSync(tmp)).toBe(false);
    expect(await listening(sandbox)).toBe(false);
    expect(await listening(receiver)).toBe(false);
  });

  it('stops everything it started on Ctrl-C and exits 130', async () => {
    let sent = false;
    let seen: ReturnType<typeof started> | undefined;
    const r = await runDemo((out, child) => {
      if (!sent && out.includes('━━ 3/11')) {
        sent = true;
        seen = started(out);
        child.kill('SIGINT');
      }
    });
    expect(sent, r.out).toBe(true);
    expect(r.code, r.out).toBe(130);
    expect(r.out).toContain('Interrupted: stopping the sandbox and the receiver');
    expect(existsSync(seen!.tmp)).toBe(false);
    expect(await listening(seen!.sandbox)).toBe(false);
    expect(await listening(seen!.receiver)).toBe(false);
  });
});

/**
 * Runs the demo as `npm run demo | head` would: stdout is read until `enough(out)`, then closed.
 * Resolves with what was read, stderr and the exit code.
 */
async function runDemoUntilReaderLeaves(enough: (out: string) => boolean): Promise<{ out: string; err: string; code: number | null }> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'demo.mjs')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, CI: 'true', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve) => {
    const onData = (d: Buffer) => {
      out += d.toString('utf8');
      if (enough(out)) {
        child.stdout.off('data', onData);
        child.stdout.destroy();
        resolve();
      }
    };
    child.stdout.on('data', onData);
  });
  const code = await exited;
  return { out, err, code };
}

describe('npm run demo | head', { timeout: 120_000 }, () => {
  it('a closed stdout ends the demo quietly (exit 0, no EPIPE trace) and stops everything it started', async () => {
    // The reader goes away once the receiver is up (step 5 started the listener).
    const { out, err, code } = await runDemoUntilReaderLeaves((o) => /^Listening on http/m.test(o));
    const seen = started(out);
    expect(code, err).toBe(0);
    expect(err).not.toMatch(/EPIPE|Error|at .+:\d+:\d+/);
    expect(existsSync(seen.tmp)).toBe(false);
    expect(await listening(seen.sandbox)).toBe(false);
    expect(await listening(seen.receiver)).toBe(false);
  });
});

describe('npm run demo | head -n 3', { timeout: 120_000 }, () => {
  it('a reader gone before the first step leaves no formctl running and no temp directory', async () => {
    // `head -n 3` goes away after the banner, the sandbox line and the receiver's command line:
    // the demo is still starting its first commands then.
    const { out, err, code } = await runDemoUntilReaderLeaves((o) => o.split('\n').length > 3);
    const tmp = /config lives in (\S+) and is removed/.exec(out)![1]!;
    expect(code, err).toBe(0);
    // A command started after the reader left would outlive the demo, fail against the stopped
    // sandbox and write its config into the removed directory. The demo has exited, so such a
    // straggler would be running now: no process has the demo's config directory in its environment.
    expect(processesWith('FORMCTL_CONFIG_DIR', join(tmp, 'config')).map((p) => p.cmdline)).toEqual([]);
    // A step that began before the reader left (a busy machine reads the three lines late) may have
    // said what it did on stderr; none failed, and nothing broke on the closed pipe.
    expect(err).not.toMatch(/^(error|warning|hint):|EPIPE|Error|at .+:\d+:\d+/m);
    expect(existsSync(tmp)).toBe(false);
  });
});

describe('examples/ci-export.sh', () => {
  it("exports a form without prompting, and passes formctl's exit code on", async () => {
    const { sb: sandbox, work: dir } = await sandboxForTest({ seed: 3 });
    // `formctl` on PATH is the built binary, as after `npm install -g`.
    writeFileSync(join(dir, 'formctl'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin', 'formctl.js'))} "$@"\n`);
    chmodSync(join(dir, 'formctl'), 0o755);
    const env = { PATH: `${dir}:${process.env.PATH}`, CI: 'true', HOME: dir, FORMCTL_CONFIG_DIR: join(dir, 'config'), ...sandbox.env };
    const run = (form: string) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn('bash', [join(ROOT, 'examples', 'ci-export.sh'), join(dir, 'out.csv')], { cwd: dir, env: { ...env, FORM: form } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
      });
    const ok = await run(String(sandbox.formId));
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe(
      `Exporting answers of "Customer feedback (demo)" to ${join(dir, 'out.csv')}\nSaved ${join(dir, 'out.csv')} (4 lines including the header)\n`,
    );
    expect(readFileSync(join(dir, 'out.csv'), 'utf8').split('\n')[0]).toMatch(/^\uFEFF?id,/);
    const missing = await run('99999');
    expect(missing.status).toBe(6);
    // The failed lookup stops the script (pipefail): it never runs on with an empty title.
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^error: .*\(HTTP 404, GET \/open\/forms\/99999\)\n/);
  });
});
