#!/usr/bin/env node
// `npm run demo`: a narrated tour of formctl against the embedded sandbox, with real commands and
// their real output. Everything it starts (sandbox, webhook receiver, config in a temp directory)
// is stopped and removed at the end, on failure and on Ctrl-C. Exit 0 only when every step passed.
// Run after a build: `npm run build && node scripts/demo.mjs` (that is what `npm run demo` does).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'formctl.js');
/** Longest any one command may run before the demo calls it failed. */
const COMMAND_TIMEOUT_MS = 60_000;

const color = process.stdout.isTTY && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
const paint = (code, s) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
const bold = (s) => paint('1', s);
const dim = (s) => paint('2', s);
const cyan = (s) => paint('36', s);
const green = (s) => paint('32', s);
const red = (s) => paint('31', s);
// Set once stdout's reader has gone (`npm run demo | head`): nothing more is written.
let stdoutClosed = false;
const emit = (s) => {
  if (!stdoutClosed) process.stdout.write(s);
};
const say = (s = '') => emit(`${s}\n`);

// ── Resources, all released by cleanup() ────────────────────────────────────────────────────
const tmp = mkdtempSync(join(tmpdir(), 'formctl-demo-'));
const children = new Set();
let sandbox;
let cleaning;

/** Stops everything once; every caller (a signal, a closed stdout, the end) waits for the same work. */
function cleanup() {
  cleaning ??= stopAll();
  return cleaning;
}

async function stopAll() {
  // Wait for each child to exit (a receiver still closing its port is not stopped yet); one that
  // ignores SIGTERM for 3 s is killed.
  const exited = [...children].map((child) => {
    if (child.exitCode !== null || child.signalCode !== null) return undefined;
    return new Promise((resolve) => {
      const force = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
  });
  await sandbox?.close().catch(() => undefined);
  await Promise.all(exited);
  rmSync(tmp, { recursive: true, force: true });
}

// A closed stdout ends the demo as quietly as a closed pipe ends formctl: everything it started is
// stopped, the temp directory removed, exit 0 (nobody is left to read the rest).
process.stdout.on('error', (err) => {
  if (err.code !== 'EPIPE') throw err;
  if (stdoutClosed) return;
  stdoutClosed = true;
  cleanup().finally(() => process.exit(0));
});

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    say(`\n${red('Interrupted')}: stopping the sandbox and the receiver, removing ${tmp}`);
    cleanup().finally(() => process.exit(130));
  });
}

// Only the throw-away config is used; no token or profile of the person running the demo leaks in.
const env = {
  PATH: process.env.PATH,
  HOME: tmp,
  TERM: process.env.TERM,
  NO_COLOR: process.env.NO_COLOR,
  FORCE_COLOR: process.env.FORCE_COLOR,
  COLUMNS: process.env.COLUMNS,
  FORMCTL_CONFIG_DIR: join(tmp, 'config'),
  FORMCTL_STATE_DIR: join(tmp, 'state'),
  FORMCTL_CACHE_DIR: join(tmp, 'cache'),
};
for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];

/** Quotes a word for display the way a shell user would type it. */
const shellWord = (w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/**
 * Runs `formctl …` and shows it as typed. With `capture`, stdout is returned (and printed);
 * otherwise it goes straight to this terminal, so tables and colours look as they would for you.
 */
function formctl(args, o = {}) {
  // Once the demo is stopping (Ctrl-C, a closed stdout), nothing new is started.
  if (cleaning) return Promise.reject(new Error('the demo is stopping'));
  say(`${cyan('$')} ${bold(['formctl', ...args].map(shellWord).join(' '))}${o.note ? dim(`   # ${o.note}`) : ''}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env,
      stdio: [o.input === undefined ? 'ignore' : 'pipe', o.capture ? 'pipe' : 'inherit', 'inherit'],
    });
    children.add(child);
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
      emit(d);
    });
    if (o.input !== undefined) child.stdin.end(o.input);
    const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      if (code === (o.expectCode ?? 0)) resolve(out);
      else reject(new Error(`formctl ${args[0]} ${args[1] ?? ''} exited with ${code}`));
    });
  });
}

/** Starts `formctl webhook listen` and resolves with its URL and a view of what it printed. */
function startListener(secretFile) {
  if (cleaning) return Promise.reject(new Error('the demo is stopping'));
  say(`${cyan('$')} ${bold(`formctl webhook listen --port 0 --secret-file ${shellWord(secretFile)} &`)}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'webhook', 'listen', '--port', '0', '--secret-file', secretFile], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    const listener = { out: '', err: '', url: '' };
    child.stdout.on('data', (d) => (listener.out += d));
    child.stderr.on('data', (d) => {
      listener.err += d;
      const m = /Listening on (http:\/\/\S+)/.exec(listener.err);
      if (m && !listener.url) {
        listener.url = m[1];
        emit(listener.err);
        resolve(listener);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      children.delete(child);
      if (!listener.url) reject(new Error(`webhook listen exited with ${code}: ${listener.err.trim()}`));
    });
  });
}

/** Waits until `check()` is true, polling; fails after `ms`. */
async function until(check, ms, what) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// ── The tour: each step says what it shows, runs real commands, and may record ids for later ones ──
const ANSWERS = [
  { name: 'Ada Lovelace', email: 'ada@example.com', topic: 'Question', message: 'Can I export my answers to CSV?' },
  { name: 'Alan Turing', email: 'alan@example.com', topic: 'Feedback', message: 'The new form is much clearer.' },
  { name: 'Grace Hopper', email: 'grace@example.com', topic: 'Bug report', message: 'The date picker skips February.' },
];

const steps = [
  {
    title: 'Log in',
    text: 'Save a profile for the sandbox. In CI the token comes from a secret on stdin, never from a flag.',
    async run(ctx) {
      await formctl(['auth', 'login', '--with-token', '--base-url', ctx.url], { input: `${ctx.token}\n`, note: 'token piped on stdin' });
      await formctl(['auth', 'status']);
    },
  },
  {
    title: 'Create a workspace',
    text: 'Workspaces hold forms and members. --json makes the result easy to script; `workspace use` makes it the default.',
    async run(ctx) {
      const ws = JSON.parse(await formctl(['workspace', 'create', '--name', 'Demo team', '--emoji', '🚀', '--json', 'id,name'], { capture: true }));
      ctx.workspace = ws.id;
      await formctl(['workspace', 'use', String(ws.id)]);
      await formctl(['workspace', 'list']);
    },
  },
  {
    title: 'Create a form from examples/contact-form.json',
    text: 'The file holds the title, fields and settings; formctl checks it locally before sending it.',
    needs: ['workspace'],
    async run(ctx) {
      const form = JSON.parse(
        await formctl(['form', 'create', '--file', 'examples/contact-form.json', '--json', 'id,slug,title,visibility'], { capture: true }),
      );
      ctx.form = String(form.id);
      ctx.slug = form.slug;
      await formctl(['form', 'fields', ctx.form]);
    },
  },
  {
    title: 'Add a member',
    text: 'Roles are admin, user and readonly. Someone without an account would get an invite instead.',
    needs: ['workspace'],
    async run(ctx) {
      ctx.sandbox.admin.createUser({ email: 'alice@example.com', name: 'Alice Example' });
      await formctl(['member', 'add', 'alice@example.com', '--role', 'user']);
      await formctl(['member', 'list']);
    },
  },
  {
    title: 'Create a signed webhook',
    text: 'Every new submission is POSTed to a receiver, signed with HMAC-SHA256. Here the receiver is `formctl webhook listen` on this machine.',
    needs: ['form'],
    async run(ctx) {
      const hook = JSON.parse(
        await formctl(['webhook', 'create', ctx.form, '--url', ctx.listener.url, '--secret-file', ctx.secretFile, '--allow-private', '--json', 'id,status'], {
          capture: true,
          note: 'local receiver, so --allow-private',
        }),
      );
      ctx.webhook = String(hook.id);
    },
  },
  {
    title: 'Post three public answers',
    text: `Visitors answer the form at its public endpoint (no token): POST /forms/<slug>/answer.`,
    needs: ['slug'],
    async run(ctx) {
      for (const answer of ANSWERS) {
        say(`${cyan('$')} ${bold(`curl -X POST ${ctx.url}/forms/${ctx.slug}/answer -H 'Content-Type: application/json' -d '${JSON.stringify(answer)}'`)}`);
        const res = await fetch(`${ctx.url}/forms/${encodeURIComponent(ctx.slug)}/answer`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(answer),
        });
        const body = await res.text();
        say(body.trim());
        if (!res.ok) throw new Error(`the answer was refused (HTTP ${res.status})`);
      }
    },
  },
  {
    title: 'Show the verified deliveries and the event log',
    text: 'The receiver checked each signature with the shared secret; the service keeps a log of every attempt.',
    needs: ['webhook'],
    async run(ctx) {
      await ctx.sandbox.admin.deliveries();
      const answered = () => (ctx.listener.out.match(/^→ answered/gm) ?? []).length;
      await until(() => answered() >= ANSWERS.length, 15_000, 'three deliveries at the receiver');
      // The receiver prints each delivery's headers and body too; the summary lines tell the story.
      say(dim('── `formctl webhook listen` output, headers and bodies left out ──'));
      const summary = ctx.listener.out.split('\n').filter((l) => /^#\d+ |^\s+signature |^→ /.test(l));
      say(summary.join('\n'));
      say(dim('──'));
      const valid = summary.filter((l) => /^\s+signature valid$/.test(l)).length;
      if (valid !== ANSWERS.length) throw new Error(`${valid} of ${ANSWERS.length} deliveries had a valid signature`);
      await formctl(['webhook', 'events', ctx.form, ctx.webhook]);
    },
  },
  {
    title: 'List submissions',
    text: 'A table on a terminal, tab-separated when piped, JSON with --json (try `| jq`).',
    needs: ['form'],
    async run(ctx) {
      await formctl(['submission', 'list', ctx.form]);
      await formctl(['submission', 'list', ctx.form, '--json', 'id', '--limit', '2']);
    },
  },
  {
    title: 'Export the answers to CSV',
    text: 'Written to a .part file and renamed when complete, so an interrupted export never leaves half a file.',
    needs: ['form'],
    async run(ctx) {
      const file = join(tmp, 'answers.csv');
      await formctl(['submission', 'export', ctx.form, '-o', file]);
      say(`${cyan('$')} ${bold(`head -n 4 ${shellWord(file)}`)}`);
      const lines = readFileSync(file, 'utf8').split('\n').slice(0, 4);
      say(lines.join('\n'));
      if (lines.length < 4 || !lines[3]) throw new Error('the CSV has fewer than three answers');
    },
  },
  {
    title: 'Update the form safely, with a diff',
    text: 'formctl fetches the form, merges your change, validates, backs up the old version and only then saves. --dry-run shows the diff first.',
    needs: ['form'],
    async run(ctx) {
      await formctl(['form', 'update', ctx.form, '--title', 'Contact us (updated by the demo)', '--set', 'submit_button_text=Send it', '--dry-run']);
      await formctl(['form', 'update', ctx.form, '--title', 'Contact us (updated by the demo)', '--set', 'submit_button_text=Send it']);
      await formctl(['form', 'backups', ctx.form], { note: '`form restore` puts a backup back' });
    },
  },
  {
    title: 'Clean up',
    text: 'Destructive commands ask on a terminal; scripts pass --yes.',
    needs: ['workspace'],
    async run(ctx) {
      if (ctx.webhook) await formctl(['webhook', 'delete', ctx.form, ctx.webhook, '--yes']);
      if (ctx.form) await formctl(['form', 'delete', ctx.form, '--yes']);
      await formctl(['workspace', 'delete', String(ctx.workspace), '--yes']);
      await formctl(['auth', 'logout']);
    },
  },
];

// ── Run ──────────────────────────────────────────────────────────────────────────────────────
const results = [];
try {
  if (!existsSync(join(ROOT, 'dist', 'sandbox.js'))) throw new Error('dist/ is missing: run `npm run build` first (or `npm run demo`).');
  say(bold('formctl demo') + dim(` — a tour against a local sandbox; config lives in ${tmp} and is removed at the end`));
  const { startSandbox } = await import(new URL('../dist/sandbox.js', import.meta.url).href);
  // Rate limit off: the tour makes many quick requests from one address.
  sandbox = await startSandbox({ port: 0, rateLimit: 0, allowPrivateWebhooks: true });
  const secretFile = join(tmp, 'webhook-secret.txt');
  writeFileSync(secretFile, `${randomBytes(24).toString('base64url')}\n`, { mode: 0o600 });
  say(dim(`Sandbox listening on ${sandbox.url} (private webhooks allowed, for the local receiver)`));
  const listener = await startListener(secretFile);
  const ctx = { url: sandbox.url, token: sandbox.tokens.all, sandbox, listener, secretFile };

  for (const [i, step] of steps.entries()) {
    if (interrupted || cleaning) break;
    say(`\n${bold(cyan(`━━ ${i + 1}/${steps.length} ${step.title}`))}`);
    say(dim(step.text));
    const missing = (step.needs ?? []).filter((k) => ctx[k] === undefined);
    if (missing.length) {
      say(red(`✗ skipped: an earlier step did not produce ${missing.join(', ')}`));
      results.push({ step, ok: false });
      continue;
    }
    try {
      await step.run(ctx);
      results.push({ step, ok: true });
    } catch (err) {
      say(red(`✗ ${step.title} failed: ${err.message}`));
      results.push({ step, ok: false });
    }
  }
} catch (err) {
  say(red(`✗ demo could not start: ${err.message}`));
  results.push({ step: { title: 'start' }, ok: false });
} finally {
  await cleanup();
}

const failed = results.filter((r) => !r.ok);
say('');
if (failed.length === 0 && results.length === steps.length) {
  say(green(bold(`✓ all ${steps.length} steps passed`)) + dim(' — sandbox and receiver stopped, temporary config removed'));
  say(`Next: ${bold('npm test')} runs the test suite; ${bold('formctl --help')} and ${bold('formctl help environment')} explain the rest.`);
} else {
  say(red(bold(`✗ ${failed.length} of ${steps.length} steps failed: ${failed.map((r) => r.step.title).join(', ')}`)));
  process.exitCode = 1;
}
