import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { SAME_INTERRUPTION_MS, interruptions, run } from '../../../src/main.js';
import { startStubServer } from '../../helpers/http.js';
import { Capture } from '../../helpers/io.js';
import { completeTimeoutMs } from '../../../src/completion/values.js';
import { EXIT_CODE_TABLE } from '../../../src/errors.js';
import { ROOT } from '../../helpers/cli.js';

const home = mkdtempSync(join(tmpdir(), 'formctl-main-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function formctl(args: string[], o: { env?: NodeJS.ProcessEnv; tty?: boolean } = {}) {
  const stdin = Object.assign(new PassThrough(), { isTTY: o.tty ?? false });
  stdin.end();
  const stdout = new Capture(o.tty ?? false);
  const stderr = new Capture(o.tty ?? false);
  const env = { FORMCTL_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1', ...o.env };
  const code = await run(args, env, { stdin, stdout, stderr });
  return { code, out: stdout.text(), err: stderr.text() };
}

describe('stdin', () => {
  it('is not asked for by a command that does not read it (the real process builds its stdin stream on first use)', async () => {
    let reads = 0;
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    stdin.end('{}');
    const stdio = () => ({
      get stdin() {
        reads++;
        return stdin;
      },
      stdinIsTTY: false,
      stdout: new Capture(false),
      stderr: new Capture(false),
    });
    const env = { FORMCTL_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1' };
    const help = stdio();
    expect(await run(['help', 'exit-codes'], env, help)).toBe(0);
    expect(help.stdout.text()).toContain('Exit codes');
    expect(reads).toBe(0);
    // A command that reads stdin gets it.
    const secret = join(home, 'webhook-secret');
    writeFileSync(secret, 'x'.repeat(32));
    const sign = stdio();
    expect(await run(['webhook', 'sign', '--secret-file', secret], env, sign)).toBe(0);
    expect(sign.stdout.text()).toMatch(/^sha256=[0-9a-f]{64}\n$/);
    expect(reads).toBeGreaterThan(0);
  });
});

describe('main error mapping', () => {
  it('no token: one error line plus hint, exit 4, no stack', async () => {
    const r = await formctl(['workspace', 'list']);
    expect(r).toEqual({
      code: 4,
      out: '',
      err: 'error: Not logged in (profile "default").\nhint: Run `formctl auth login`, or set FORMCTL_TOKEN (and FORMCTL_BASE_URL) in CI.\n',
    });
  });

  it('--debug adds the stack trace', async () => {
    const r = await formctl(['workspace', 'list', '--debug']);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/^error: Not logged in \(profile "default"\)\.\nhint: .*\nCliError: Not logged in.*\n\s+at /);
  });

  it('colour on stderr follows FORCE_COLOR', async () => {
    const r = await formctl(['workspace', 'list'], { env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(r.err.startsWith('\x1b[31merror:\x1b[39m Not logged in')).toBe(true);
    const plain = await formctl(['workspace', 'list', '--no-color'], { env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(plain.err.startsWith('error: Not logged in')).toBe(true);
  });

  it('a network error exits 11 with the host named', async () => {
    const port = await closedPort();
    const r = await formctl(['workspace', 'list', '--max-wait', '0'], { env: { FORMCTL_TOKEN: 'tok_x', FORMCTL_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(r.code).toBe(11);
    expect(r.err.split('\n')[0]).toBe(`error: Connection refused by 127.0.0.1:${port} (GET /open/workspaces).`);
    expect(r.err).not.toContain('tok_x');
  });

  it('a port the fetch standard blocks (1) is tried as curl tries it: a direct request goes through node:http (exit 11, refused)', async () => {
    const r = await formctl(['workspace', 'list', '--max-wait', '0'], { env: { FORMCTL_TOKEN: 'tok_x', FORMCTL_BASE_URL: 'http://127.0.0.1:1' } });
    expect(r.code).toBe(11);
    expect(r.err.split('\n')[0]).toBe('error: Connection refused by 127.0.0.1:1 (GET /open/workspaces).');
  });

  it('a token is never sent over plain http to a non-loopback host (exit 2)', async () => {
    const r = await formctl(['workspace', 'list'], { env: { FORMCTL_TOKEN: 'tok_x', FORMCTL_BASE_URL: 'http://example.com' } });
    expect(r.code).toBe(2);
    expect(r.err.split('\n')[0]).toBe('error: Refusing to send your token over plain http:// to example.com.');
  });
});

describe('server-controlled text in error lines', () => {
  it('escape sequences and carriage returns in a server message or field error are shown, not obeyed', async () => {
    const stub = await startStubServer((_req, res) => {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Bad\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07\r\x1b[2K', errors: { 'name\x1b[31m': ['too\x9b1mred'] } }));
    });
    try {
      const r = await formctl(['workspace', 'list'], { tty: true, env: { FORMCTL_TOKEN: 'tok_x', FORMCTL_BASE_URL: stub.url } });
      expect(r.code).toBe(7);
      // eslint-disable-next-line no-control-regex
      expect(r.err).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      expect(r.err).toContain('error: Bad\\x1b]8;;https://evil.example/\\x07click\\x1b]8;;\\x07\\x0d\\x1b[2K. (HTTP 422, GET /open/workspaces)\n');
      expect(r.err).toContain('  name\\x1b[31m: too\\x9b1mred\n');
    } finally {
      await stub.close();
    }
  });
});

describe('usage errors and suggestions', () => {
  it('unknown command suggests the nearest one (exit 2)', async () => {
    const r = await formctl(['worksapce', 'list']);
    expect(r.code).toBe(2);
    expect(r.err).toBe("error: unknown command 'worksapce'\n(Did you mean workspace?)\nhint: see `formctl --help`\n");
  });

  it('unknown flag suggests the nearest one (exit 2)', async () => {
    const r = await formctl(['workspace', 'list', '--jsno']);
    expect(r.code).toBe(2);
    expect(r.err).toBe("error: unknown option '--jsno'\n(Did you mean --json?)\nhint: see `formctl workspace list --help`\n");
  });

  it("an unknown flag's value after = is never echoed: a token or secret tried as a flag stays out of the terminal and logs", async () => {
    const token = await formctl(['auth', 'login', '--token=fsk_SECRET_value_123']);
    expect(token.code).toBe(2);
    expect(token.err).toBe(
      "error: unknown option '--token=…' (a token is read from stdin or a prompt: `formctl auth login --with-token < token.txt`)\nhint: see `formctl auth login --help`\n",
    );
    const before = await formctl(['--token=fsk_SECRET_value_123', 'workspace', 'list']);
    expect(before.err).not.toContain('fsk_SECRET_value_123');
    const secret = await formctl(['webhook', 'verify', '--secret=whsec_hidden_42']);
    expect(secret.code).toBe(2);
    expect(secret.err).not.toContain('whsec_hidden_42');
    expect(secret.err.split('\n')[0]).toBe("error: unknown option '--secret=…' (a secret is read from a file or stdin, never from a flag: --secret-file)");
    const other = await formctl(['workspace', 'list', '--colour=always']);
    expect(other.err.split('\n')[0]).toBe("error: unknown option '--colour=…'");
  });

  it('a duration longer than Node keeps a timer (2^31 - 1 ms) is refused before any request, not turned into 1 ms', async () => {
    for (const args of [
      ['--timeout', '2200000', 'workspace', 'list'],
      ['--max-wait', '1e10', 'workspace', 'list'],
      ['submission', 'export', '1', '--wait-timeout', '3000000', '-o', '-'],
      ['webhook', 'events', '1', '2', '--follow', '--interval', '9e9'],
    ]) {
      const r = await formctl(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toContain('at most 2147483 (about 24 days, the longest timer Node keeps)');
    }
    expect((await formctl(['--timeout', '2147483', 'help'])).code).toBe(0);
  });

  it('--no-input and CI make a prompt a usage error naming the flag', async () => {
    for (const o of [
      { args: ['--no-input'], env: {} },
      { args: [], env: { CI: 'true' } },
    ]) {
      const r = await formctl(['workspace', 'create', ...o.args], {
        tty: true,
        env: { FORMCTL_TOKEN: 'tok_x', FORMCTL_BASE_URL: 'http://127.0.0.1:1', ...o.env },
      });
      expect(r.code).toBe(2);
      expect(r.err).toBe('error: Missing --name.\nhint: Pass --name (prompts are off: not a terminal, CI, or --no-input).\n');
    }
  });

  it('destructive verbs need --yes when not on a terminal', async () => {
    const r = await formctl(['workspace', 'delete', '12'], { env: { FORMCTL_TOKEN: 'tok_x', FORMCTL_BASE_URL: 'http://127.0.0.1:1' } });
    expect(r).toEqual({
      code: 2,
      out: '',
      err: 'error: Delete workspace 12 with all its forms and submissions: refusing without confirmation.\nhint: Pass --yes to confirm.\n',
    });
  });

  it('an invalid id is a usage error', async () => {
    const r = await formctl(['workspace', 'delete', 'abc', '--yes']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('workspace id must be a whole number from 1 to 9007199254740991, got "abc".');
  });
});

describe('help topics', () => {
  it('help exit-codes lists every code', async () => {
    const r = await formctl(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toBe('Exit codes:');
    expect(lines.map((l) => Number(l.trim().split(/\s+/)[0])).slice(1)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 129, 130, 143]);
    expect(lines).toContain('  4    Not authenticated: no token, or the server rejected it (401)');
    // An http:// proxy written as https:// either answers the handshake with an error or never answers it: both are the proxy's.
    expect(lines.find((l) => /^ {2}12 /.test(l))).toContain('did not finish its TLS handshake within --timeout (an http:// proxy written as https://)');
  });

  it("README's exit-code table lists the codes of help exit-codes, each with the same HTTP statuses", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Errors and exit codes'));
    const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| code |')));
    const rows = [...table.matchAll(/^\| (\d+) \| (.*) \|$/gm)].map((m) => [Number(m[1]), m[2]!] as const);
    const statuses = (text: string) => [...text.matchAll(/\b[1-5]\d\d\b/g)].map((m) => m[0]).join(' ');
    expect(rows.map(([code, text]) => [code, statuses(text)])).toEqual(EXIT_CODE_TABLE.map(([code, text]) => [code, statuses(text)]));
    expect(rows.find(([code]) => code === 6)?.[1]).toContain('405');
  });

  it('help environment lists the variables', async () => {
    const r = await formctl(['help', 'environment']);
    expect(r.code).toBe(0);
    const names = r.out
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/\s{2,}/)[0])
      .filter(Boolean);
    expect(names).toEqual(
      expect.arrayContaining(['FORMCTL_TOKEN', 'FORMCTL_BASE_URL', 'FORMCTL_PROFILE', 'FORMCTL_CONFIG_DIR', 'NO_COLOR', 'FORCE_COLOR', 'CI']),
    );
  });

  it("help environment gives FORMCTL_COMPLETE_TIMEOUT's range and what other values mean, as completion reads it", async () => {
    const line = (await formctl(['help', 'environment'])).out.split('\n').find((l) => l.trim().startsWith('FORMCTL_COMPLETE_TIMEOUT'));
    expect(line).toContain('(default 2; at most 600; 0, negative or not a number: 2)');
    expect([completeTimeoutMs({}), completeTimeoutMs({ FORMCTL_COMPLETE_TIMEOUT: '1e9' })]).toEqual([2_000, 600_000]);
    for (const v of ['0', '-1', 'abc']) expect(completeTimeoutMs({ FORMCTL_COMPLETE_TIMEOUT: v })).toBe(2_000);
  });

  it('an unknown help topic is a usage error', async () => {
    const r = await formctl(['help', 'nope']);
    expect(r.code).toBe(2);
    expect(r.err).toBe('error: No help topic or command "nope".\nhint: Topics: environment, exit-codes. Commands: see `formctl --help`.\n');
  });

  it('every command in my groups has an Examples block', async () => {
    for (const path of [
      ['auth', 'login'],
      ['auth', 'status'],
      ['auth', 'logout'],
      ['auth', 'token'],
      ['profile', 'list'],
      ['profile', 'use'],
      ['profile', 'remove'],
      ['config', 'path'],
      ['config', 'list'],
      ['config', 'get'],
      ['config', 'set'],
      ['api'],
      ['sandbox'],
    ]) {
      const r = await formctl([...path, '--help']);
      expect(r.code, path.join(' ')).toBe(0);
      expect(r.out, path.join(' ')).toMatch(/\nExamples:\n {2}\$ formctl /);
    }
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

describe('interruptions (Ctrl-C and SIGTERM as cli() takes them)', () => {
  it('the first stops the command; one sent again within the window is the same; a later one forces the exit', () => {
    let now = 5_000;
    const seen = interruptions(() => now);
    expect(seen()).toBe('first');
    now += 2; // `timeout`'s second send, to the process group
    expect(seen()).toBe('same');
    now += SAME_INTERRUPTION_MS - 3;
    expect(seen()).toBe('same');
    now += SAME_INTERRUPTION_MS; // a person pressing Ctrl-C again, the cleanup taking too long
    expect(seen()).toBe('again');
    now += 1;
    expect(seen()).toBe('same');
  });

  it('the window counts from the last signal taken, not from the ignored ones', () => {
    let now = 0;
    const seen = interruptions(() => now);
    expect(seen()).toBe('first');
    for (let i = 0; i < 5; i++) {
      now += SAME_INTERRUPTION_MS / 2;
      expect(seen()).toBe(i % 2 === 0 ? 'same' : 'again');
    }
  });
});
