import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, frozenClockEnv, runFormctl, tempHome } from '../helpers/cli.js';
import { type StubServer, json, startStubServer } from '../helpers/http.js';
import { type TmuxSession, hasTmux, startTmuxCommand } from '../helpers/tmux.js';

const TOKEN = 'fsk_completion_test_token_123';
const LOAD_LOG = fileURLToPath(new URL('./fixtures/load-log.mjs', import.meta.url));
let home: ReturnType<typeof tempHome>;
let stub: StubServer;
let status = 200;

beforeEach(async () => {
  home = tempHome();
  status = 200;
  stub = await startStubServer((req, res) => {
    if (status !== 200) return json(res, status, { message: 'boom' });
    if (req.url === '/open/workspaces')
      return json(res, 200, [
        { id: 1, name: 'Acme', icon: '🚀' },
        { id: 12, name: 'Side\tproject' },
      ]);
    if (req.url?.startsWith('/open/workspaces/12/forms')) {
      return json(res, 200, { data: [{ id: 5, slug: 'contact-x1', title: 'Contact', visibility: 'public' }], meta: { current_page: 1, last_page: 3 } });
    }
    if (req.url === '/open/forms/5/integrations') {
      return json(res, 200, [
        {
          id: 9,
          form_id: 5,
          integration_id: 'webhook',
          status: 'active',
          data: { webhook_url: 'https://hooks.example.com/in?key=SECRET', webhook_secret: 'supersecretvalue' },
        },
      ]);
    }
    return json(res, 404, { message: 'Not found' });
  });
});
afterEach(async () => {
  await stub.close();
  home.cleanup();
});

// A tab press waits 2 s for the service, then offers nothing: on a loaded machine a spawned
// formctl can take longer than that to send one request. The tests give it a minute
// (FORMCTL_COMPLETE_TIMEOUT), so that only a missing answer empties one, never a slow machine;
// test/unit/completion/timeout.test.ts checks the limit itself.
const SLOW_MACHINE = { FORMCTL_COMPLETE_TIMEOUT: '60' };

const complete = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runFormctl(['__complete', ...args], { env: { ...home.env, FORMCTL_BASE_URL: stub.url, FORMCTL_TOKEN: TOKEN, ...SLOW_MACHINE, ...env } });

// `formctl __complete <words…>` gets the words on the command line (the last one is being
// completed) and prints "value<TAB>description" lines and a directive line ":<n>" (docs/completion.md).
// An answer with no candidates is the directive line alone.
const NOTHING = { code: 0, stdout: ':0\n', stderr: '' };

describe('formctl __complete', () => {
  it('completes a choice in any letter case when none matches in the typed one (api -X takes any case)', async () => {
    expect((await complete(['api', '-X', 'p'])).stdout).toBe('POST\nPUT\nPATCH\n:0\n');
    expect((await complete(['api', '-X', 'Pa'])).stdout).toBe('PATCH\n:0\n');
    expect((await complete(['member', 'add', 'x@y.z', '--role', 'ADM'])).stdout).toBe('admin\n:0\n');
    expect((await complete(['invite', 'list', '--status=PEN'])).stdout).toBe('pending\n:0\n');
    expect(stub.requests).toEqual([]);
  });

  it('lists workspaces as value<TAB>description and serves the next tab press from the cache', async () => {
    // Both tab presses at one instant (the processes' clocks stand still): the entry is fresh however slow the machine.
    const now = frozenClockEnv(Date.now());
    const first = await complete(['workspace', 'use', ''], now);
    expect(first).toEqual({ code: 0, stdout: '1\t🚀 Acme\n12\tSide project\n:0\n', stderr: '' });
    expect(stub.requests.map((r) => r.url)).toEqual(['/open/workspaces']);
    const second = await complete(['workspace', 'use', ''], now);
    expect(second.stdout).toBe(first.stdout);
    expect(stub.requests).toHaveLength(1);
  });

  it('loads neither the CLI bundle nor Commander, conf or undici on a cache hit', async () => {
    // The load log (a preload that records every module resolved, by require() or import) names
    // each package loaded from node_modules or bundled into dist/ (undici is a file of its own), and
    // the CLI itself (dist/cli/main.cjs, one file, with Commander bundled into it).
    const log = join(home.dir, 'loads.log');
    const named = (line: string): string | undefined =>
      (/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line) ?? /\/dist\/cli\/(undici)\.cjs$/.exec(line) ?? /\/(dist\/cli\/main\.cjs)$/.exec(line))?.[1];
    // The miss and the hit at one instant (the processes' clocks stand still): the entry is fresh however slow the machine.
    const frozen = frozenClockEnv(Date.now());
    const loads = async () => {
      writeFileSync(log, '');
      // A proxy variable (NO_PROXY=*: the request still goes direct) makes a request load the undici package.
      const r = await complete(['workspace', 'use', ''], {
        ...frozen,
        NODE_OPTIONS: `${frozen.NODE_OPTIONS} --import ${LOAD_LOG}`,
        FORMCTL_LOAD_LOG: log,
        HTTP_PROXY: 'http://127.0.0.1:9',
        NO_PROXY: '*',
      });
      expect(r.stdout).toBe('1\t🚀 Acme\n12\tSide project\n:0\n');
      return new Set(
        readFileSync(log, 'utf8')
          .split('\n')
          .flatMap((line) => named(line) ?? []),
      );
    };
    const heavy = ['conf', 'undici', '@inquirer/prompts', 'ora', 'chalk', 'commander', 'cli-table3'];
    // The miss proves the log sees what loads: its HTTP request, with a proxy variable set, loads
    // undici; and the CLI shows in it.
    const miss = await loads();
    expect(miss.has('undici')).toBe(true);
    expect(miss.has('dist/cli/main.cjs')).toBe(true);
    // The hit is answered by bin/formctl.js from the cache (src/completion/fast.ts): nothing of the CLI loads.
    const hit = await loads();
    expect(stub.requests).toHaveLength(1);
    expect([...hit].filter((p) => heavy.includes(p) || p.startsWith('dist/'))).toEqual([]);
  });

  it('keys the cache by token, so another login asks again', async () => {
    await complete(['workspace', 'use', '']);
    await complete(['workspace', 'use', ''], { FORMCTL_TOKEN: 'fsk_another_token_456' });
    expect(stub.requests).toHaveLength(2);
  });

  it('lists one page of forms of the -w workspace with a single request', async () => {
    const r = await complete(['form', 'get', '--workspace', '12', '']);
    expect(r.stdout).toBe('5\tContact (contact-x1)\n:0\n');
    expect(stub.requests.map((q) => q.url.split('?')[0])).toEqual(['/open/workspaces/12/forms']);
  });

  it('uses FORMCTL_WORKSPACE when no --workspace is given, and offers nothing without a workspace', async () => {
    expect((await complete(['form', 'get', ''], { FORMCTL_WORKSPACE: '12' })).stdout).toBe('5\tContact (contact-x1)\n:0\n');
    expect(await complete(['form', 'get', ''])).toEqual(NOTHING);
  });

  it('lists integrations with status and host only: no secret, path or query', async () => {
    const r = await complete(['webhook', 'get', '5', '']);
    expect(r.stdout).toBe('9\tactive hooks.example.com\n:0\n');
  });

  it('stores no token and no secret in a 0600 cache file', async () => {
    await complete(['webhook', 'get', '5', '']);
    const dir = join(home.env.FORMCTL_CACHE_DIR!, 'completion');
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, files[0]!)).mode & 0o777).toBe(0o600);
    const text = readFileSync(join(dir, files[0]!), 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain('supersecretvalue');
  });

  it('refetches once the entry is older than 60 s', async () => {
    await complete(['workspace', 'use', '']);
    const dir = join(home.env.FORMCTL_CACHE_DIR!, 'completion');
    const file = join(dir, readdirSync(dir)[0]!);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { at: number };
    writeFileSync(file, JSON.stringify({ ...entry, at: entry.at - 61_000 }));
    await complete(['workspace', 'use', '']);
    expect(stub.requests).toHaveLength(2);
  });

  it('is silent with exit 0 on a server error, with one request and no retry', async () => {
    status = 503;
    expect(await complete(['workspace', 'use', ''])).toEqual(NOTHING);
    expect(stub.requests).toHaveLength(1);
  });

  it('is silent when not logged in, when the service is unreachable, and for unknown sources', async () => {
    expect(await runFormctl(['__complete', 'workspace', 'use', ''], { env: home.env })).toEqual(NOTHING);
    expect(await complete(['workspace', 'use', ''], { FORMCTL_BASE_URL: 'http://127.0.0.1:1' })).toEqual(NOTHING);
    expect(await complete(['nonsense', '--what'])).toEqual(NOTHING);
    // Words that would be flags of a normal run are only words here: no debug log, no error.
    expect(await complete(['--debug', 'workspace', 'use', ''], { FORMCTL_DEBUG: '1', FORMCTL_BASE_URL: 'http://127.0.0.1:1' })).toEqual(NOTHING);
  });

  it('never prompts: a non-numeric form offers nothing instead of resolving it', async () => {
    expect(await complete(['webhook', 'get', 'contact-x1', ''])).toEqual(NOTHING);
    expect(stub.requests).toHaveLength(0);
  });

  it("completes a command's --json fields, each once, without a request", async () => {
    // Directive 4: no space after the value, the list may go on.
    expect(await complete(['form', 'list', '--json', 'id,ti'])).toEqual({ code: 0, stdout: 'id,title\n:4\n', stderr: '' });
    expect((await complete(['workspace', 'list', '--json='])).stdout.split('\n')).toEqual(expect.arrayContaining(['id', 'name']));
    const status = ['job_id', 'progress', 'file_url', 'expires_at', 'error_message'].map((f) => `status,${f}\n`).join('');
    expect(await complete(['submission', 'export-status', '5', 'j', '--json=status,'])).toEqual({ code: 0, stdout: `${status}:4\n`, stderr: '' });
    expect(stub.requests).toHaveLength(0);
  });

  it('lists saved profiles from the config file without any request', async () => {
    const login = await runFormctl(['auth', 'login', '--with-token', '--base-url', stub.url], { env: home.env, input: `${TOKEN}\n` });
    expect(login.code, login.stderr).toBe(0);
    const before = stub.requests.length;
    const r = await runFormctl(['__complete', 'profile', 'use', ''], { env: home.env });
    expect(r.stdout).toBe(`default\t${stub.url} (current)\n:0\n`);
    expect((await runFormctl(['__complete', '--profile', 'd'], { env: home.env })).stdout).toBe(`default\t${stub.url} (current)\n:0\n`);
    expect(stub.requests).toHaveLength(before);
  });
});

describe('formctl completion', () => {
  it('prints the bash script and rejects an unknown shell with the valid choices', async () => {
    const ok = await runFormctl(['completion', 'bash'], { env: home.env });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^# bash completion for formctl\n/);
    expect(ok.stdout).toContain('\ncomplete -F _formctl formctl\n');
    const bad = await runFormctl(['completion', 'powershell'], { env: home.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Allowed choices are bash, zsh, fish');
  });

  it('--help says how to install, with and without the bash-completion package', async () => {
    const r = await runFormctl(['completion', '--help'], { env: home.env });
    expect(r.stdout).toContain('# bash (no bash-completion package needed):');
    expect(r.stdout).toContain("$ echo 'source ~/.formctl-completion.bash' >> ~/.bashrc");
    expect(r.stdout).toContain('# bash with the bash-completion package (it loads this file on first use):');
  });
});

const hasShell = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;

describe.skipIf(!hasTmux())('completion in a real interactive shell (tmux), through the built binary and the API', () => {
  let t: TmuxSession | undefined;
  afterEach(() => t?.kill());

  /** A `formctl` on PATH (the built binary) and the environment an interactive shell gets. */
  function shellEnv(): string {
    const bin = join(home.dir, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'formctl'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
    chmodSync(join(bin, 'formctl'), 0o755);
    const env: NodeJS.ProcessEnv = {
      ...home.env,
      PATH: `${bin}:${process.env.PATH}`,
      TERM: 'xterm',
      ZDOTDIR: home.dir,
      FORMCTL_BASE_URL: stub.url,
      FORMCTL_TOKEN: TOKEN,
      ...SLOW_MACHINE,
      // Every formctl the shell starts lives at one instant: an answer cached by the first tab press
      // serves the later ones (each test expects one request), however long the screens take.
      ...frozenClockEnv(Date.now()),
    };
    return Object.entries(env)
      .map(([k, v]) => `${k}='${String(v).replace(/'/g, `'\\''`)}'`)
      .join(' ');
  }

  it.skipIf(!hasShell('bash'))('bash, installed as the README says without bash-completion: subcommands, then workspace ids from the API', async () => {
    const env = shellEnv();
    // The README's two lines, run with this test's HOME and the built formctl on PATH.
    const install = spawnSync('sh', ['-c', "formctl completion bash > ~/.formctl-completion.bash && echo 'source ~/.formctl-completion.bash' >> ~/.bashrc"], {
      env: { ...home.env, PATH: `${join(home.dir, 'bin')}:${process.env.PATH}` },
      encoding: 'utf8',
    });
    expect(install.status, install.stderr).toBe(0);
    writeFileSync(join(home.dir, '.bashrc'), `${readFileSync(join(home.dir, '.bashrc'), 'utf8')}PS1='READY> '\n`);
    // --rcfile ~/.bashrc: only that file, not /etc/bash.bashrc (which may load the bash-completion package).
    t = startTmuxCommand(`env -i ${env} bash --noprofile --rcfile '${join(home.dir, '.bashrc')}' -i`);
    await t.waitForText(/READY>\s*$/m);
    t.type('formctl ws d');
    t.sendKeys('Tab');
    await t.waitForText(/READY> formctl ws delete\s*$/m);
    t.sendKeys('C-u');
    t.type('formctl workspace use ');
    // The first Tab inserts the common prefix "1"; two more list both candidates (bash's double Tab),
    // each with its name beside it.
    t.sendKeys('Tab');
    await t.waitForText(/READY> formctl workspace use 1\s*$/m);
    t.sendKeys('Tab', 'Tab');
    await t.waitForText(/^1\s+\(🚀 Acme\)\s+12\s+\(Side project\)\s*$/m);
    // A unique match is inserted bare (then a space, which is not seen on the screen: the next word starts).
    t.sendKeys('2', 'Tab');
    t.type('x');
    await t.waitForText(/^READY> formctl workspace use 12 x$/m);
    // An opening quote is not part of the value: the id is still found, and the quote closed.
    t.sendKeys('C-u');
    t.type('formctl workspace use "12');
    t.sendKeys('Tab');
    t.type('x');
    await t.waitForText(/^READY> formctl workspace use "12" x$/m);
    expect(stub.requests.map((r) => r.url)).toEqual(['/open/workspaces']);
  });

  it.skipIf(!hasShell('bash'))('bash: --json fields, each inserted without a space so the list goes on after a comma', async () => {
    const script = join(home.dir, 'formctl.bash');
    writeFileSync(script, (await runFormctl(['completion', 'bash'], { env: home.env })).stdout);
    writeFileSync(join(home.dir, 'bashrc'), `source '${script}'\nPS1='READY> '\n`);
    t = startTmuxCommand(`env -i ${shellEnv()} bash --noprofile --rcfile '${join(home.dir, 'bashrc')}' -i`);
    await t.waitForText(/READY>\s*$/m);
    t.type('formctl form list --json ti');
    t.sendKeys('Tab');
    await t.waitForText(/READY> formctl form list --json title$/m);
    t.type(',sl');
    t.sendKeys('Tab');
    t.type('X');
    await t.waitForText(/READY> formctl form list --json title,slugX$/m);
    t.sendKeys('C-u');
    t.type('formctl form list --json=id,ti');
    t.sendKeys('Tab');
    t.type('X');
    await t.waitForText(/READY> formctl form list --json=id,titleX$/m);
    expect(stub.requests).toEqual([]);
  });

  it.skipIf(!hasShell('bash'))('bash: file names where a file is declared, only ids or words elsewhere', async () => {
    const script = join(home.dir, 'formctl.bash');
    writeFileSync(script, (await runFormctl(['completion', 'bash'], { env: home.env })).stdout);
    const work = join(home.dir, 'work');
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, 'contact-form.json'), '{}');
    writeFileSync(join(home.dir, 'bashrc'), `source '${script}'\ncd '${work}'\nPS1='READY> '\n`);
    t = startTmuxCommand(`env -i ${shellEnv()} bash --noprofile --rcfile '${join(home.dir, 'bashrc')}' -i`);
    await t.waitForText(/READY>\s*$/m);
    t.type('formctl form apply -f con');
    t.sendKeys('Tab');
    t.type('x');
    await t.waitForText(/READY> formctl form apply -f contact-form\.json x$/m);
    t.sendKeys('C-u');
    // After an opening quote: readline completes the text after it and closes the quote.
    t.type('formctl form apply -f "con');
    t.sendKeys('Tab');
    t.type('x');
    await t.waitForText(/READY> formctl form apply -f "contact-form\.json" x$/m);
    t.sendKeys('C-u');
    // <path> of `formctl api` is not a file: no file name is offered there.
    t.type('formctl api con');
    t.sendKeys('Tab', 'Tab');
    // A marker typed after the Tabs appears once bash has handled them (it reads keys in order): no
    // time to guess. A file name would be inserted before it, or listed above the prompt.
    t.type('Z');
    const screen = await t.waitForText(/READY> formctl api con.*Z$/m);
    expect(screen).toMatch(/READY> formctl api conZ$/m);
    expect(screen).not.toContain('contact-form.json');
    expect(stub.requests).toEqual([]);
  });

  it.skipIf(!hasShell('fish'))('fish: subcommands and workspace ids from the API, with descriptions', async () => {
    const script = join(home.dir, 'formctl.fish');
    writeFileSync(script, (await runFormctl(['completion', 'fish'], { env: home.env })).stdout);
    t = startTmuxCommand(`env -i ${shellEnv()} fish --no-config -C "source '${script}'; function fish_prompt; echo 'READY> '; end"`);
    await t.waitForText(/READY>\s*$/m);
    t.type('formctl ws del');
    t.sendKeys('Tab');
    await t.waitForText(/READY> formctl ws delete\s*$/m);
    t.sendKeys('C-u');
    t.type('formctl workspace use ');
    t.sendKeys('Tab');
    const screen = await t.waitForText(/12\s+\(Side project\)/);
    expect(screen).toMatch(/1\s+\(🚀 Acme\)/);
    expect(stub.requests.map((r) => r.url)).toEqual(['/open/workspaces']);
  });

  it.skipIf(!hasShell('fish'))('fish: a word that begins with a quote completes as the unquoted word does', async () => {
    const script = join(home.dir, 'formctl.fish');
    writeFileSync(script, (await runFormctl(['completion', 'fish'], { env: home.env })).stdout);
    t = startTmuxCommand(`env -i ${shellEnv()} fish --no-config -C "source '${script}'; function fish_prompt; echo 'READY> '; end"`);
    await t.waitForText(/READY>\s*$/m);
    t.type('formctl config get "ba');
    t.sendKeys('Tab');
    await t.waitForText(/READY> formctl config get "base_url"\s*$/m);
    t.sendKeys('C-u');
    t.type("formctl workspace use '12");
    t.sendKeys('Tab');
    await t.waitForText(/READY> formctl workspace use '12'\s*$/m);
    t.sendKeys('C-u');
    t.type("formctl form list --visibility='pu");
    t.sendKeys('Tab');
    await t.waitForText(/READY> formctl form list --visibility='public'\s*$/m);
    expect(stub.requests.map((r) => r.url)).toEqual(['/open/workspaces']);
  });

  it.skipIf(!hasShell('zsh'))('zsh: a word that begins with a quote completes as the unquoted word does', async () => {
    const fn = join(home.dir, 'fn');
    mkdirSync(fn, { recursive: true });
    writeFileSync(join(fn, '_formctl'), (await runFormctl(['completion', 'zsh'], { env: home.env })).stdout);
    writeFileSync(
      join(home.dir, '.zshrc'),
      `fpath=('${fn}' $fpath)\nautoload -U compinit && compinit -u -d '${join(home.dir, 'zcompdump')}'\nPROMPT='READY> '\n`,
    );
    t = startTmuxCommand(`env -i ${shellEnv()} zsh -i`);
    await t.waitForText(/READY>\s*$/m);
    t.type('formctl config get "ba');
    t.sendKeys('Tab');
    await t.waitForText(/READY> formctl config get "base_url"\s*$/m);
    t.sendKeys('C-u');
    t.type("formctl workspace use '12");
    t.sendKeys('Tab');
    await t.waitForText(/READY> formctl workspace use '12'\s*$/m);
    t.sendKeys('C-u');
    // A quote after "--flag=": zsh rewrites the word without it.
    t.type("formctl form list --visibility='pu");
    t.sendKeys('Tab');
    await t.waitForText(/READY> formctl form list --visibility=public\s*$/m);
    expect(stub.requests.map((r) => r.url)).toEqual(['/open/workspaces']);
  });

  it.skipIf(!hasShell('zsh'))('zsh: descriptions for commands and for workspace ids from the API', async () => {
    const fn = join(home.dir, 'fn');
    mkdirSync(fn, { recursive: true });
    writeFileSync(join(fn, '_formctl'), (await runFormctl(['completion', 'zsh'], { env: home.env })).stdout);
    writeFileSync(
      join(home.dir, '.zshrc'),
      `fpath=('${fn}' $fpath)\nautoload -U compinit && compinit -u -d '${join(home.dir, 'zcompdump')}'\nPROMPT='READY> '\n`,
    );
    t = startTmuxCommand(`env -i ${shellEnv()} zsh -i`);
    await t.waitForText(/READY>\s*$/m);
    t.type('formctl ws ');
    t.sendKeys('Tab');
    await t.waitForText(/^delete\s+rm\s+-- Delete a workspace and everything in it \(admins only\)$/m);
    t.sendKeys('C-u');
    t.type('formctl workspace use ');
    // One key at a time, each once the one before has shown its effect: the first Tab inserts the
    // common prefix "1", the second lists both with their names.
    t.sendKeys('Tab');
    await t.waitForText(/READY> formctl workspace use 1\s*$/m);
    t.sendKeys('Tab');
    const screen = await t.waitForText(/^12\s+-- Side project$/m);
    expect(screen).toMatch(/^1\s+-- 🚀 Acme$/m);
    expect(stub.requests.map((r) => r.url)).toEqual(['/open/workspaces']);
  });

  it.skipIf(!hasShell('zsh'))('zsh: --json fields, each inserted without a space so the list goes on after a comma', async () => {
    const fn = join(home.dir, 'fn');
    mkdirSync(fn, { recursive: true });
    writeFileSync(join(fn, '_formctl'), (await runFormctl(['completion', 'zsh'], { env: home.env })).stdout);
    writeFileSync(
      join(home.dir, '.zshrc'),
      `fpath=('${fn}' $fpath)\nautoload -U compinit && compinit -u -d '${join(home.dir, 'zcompdump')}'\nPROMPT='READY> '\n`,
    );
    t = startTmuxCommand(`env -i ${shellEnv()} zsh -i`);
    await t.waitForText(/READY>\s*$/m);
    t.type('formctl form list --json ti');
    t.sendKeys('Tab');
    await t.waitForText(/READY> formctl form list --json title$/m);
    t.type(',sl');
    t.sendKeys('Tab');
    t.type('X');
    await t.waitForText(/READY> formctl form list --json title,slugX$/m);
    t.sendKeys('C-u');
    t.type('formctl form list --json=id,ti');
    t.sendKeys('Tab');
    t.type('X');
    await t.waitForText(/READY> formctl form list --json=id,titleX$/m);
    expect(stub.requests).toEqual([]);
  });

  it.skipIf(!hasShell('zsh'))('zsh: "--flag=" values, and file names where a file is declared', async () => {
    const fn = join(home.dir, 'fn');
    mkdirSync(fn, { recursive: true });
    writeFileSync(join(fn, '_formctl'), (await runFormctl(['completion', 'zsh'], { env: home.env })).stdout);
    const work = join(home.dir, 'work');
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, 'contact-form.json'), '{}');
    writeFileSync(
      join(home.dir, '.zshrc'),
      `fpath=('${fn}' $fpath)\nautoload -U compinit && compinit -u -d '${join(home.dir, 'zcompdump')}'\ncd '${work}'\nPROMPT='READY> '\n`,
    );
    t = startTmuxCommand(`env -i ${shellEnv()} zsh -i`);
    await t.waitForText(/READY>\s*$/m);
    t.type('formctl form list --workspace=1');
    // Nothing to insert after "1" (1 and 12 are both candidates): the first Tab lists them.
    t.sendKeys('Tab');
    await t.waitForText(/^12\s+-- Side project$/m);
    t.sendKeys('C-u');
    t.type('formctl form apply -f con');
    t.sendKeys('Tab');
    await t.waitForText(/READY> formctl form apply -f contact-form\.json\s*$/m);
    expect(stub.requests.map((r) => r.url)).toEqual(['/open/workspaces']);
  });
});
