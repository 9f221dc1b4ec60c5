// `--jq EXPR`: jq itself (1.8, compiled to WebAssembly by the jq-wasm package), loaded only when the
// flag is given, so every other run pays nothing for it. Strings print raw, as `jq -r` and gh do.
import { UsageError } from '../errors.js';

type JqModule = typeof import('jq-wasm');

let loaded: Promise<JqModule> | undefined;
function jqModule(): Promise<JqModule> {
  loaded ??= import('jq-wasm');
  return loaded;
}

/** jq's own message for a failed run, without its "N compile errors" tally; exit 2. */
function jqFailure(stderr: string): UsageError {
  const text = stderr
    .split('\n')
    .filter((l) => l !== '' && !/^jq: \d+ compile errors?$/.test(l))
    .join('\n');
  return new UsageError(text || 'jq failed.', 'See https://jqlang.org/manual/ for the jq language.');
}

/**
 * Checks that `expr` compiles, without running it on anything: inside `limit(0; …)` jq compiles the
 * expression but never evaluates it (so `range(1e9)` or `input` cost nothing). Called before any
 * request, so a typo never follows a change made on the service.
 */
export async function checkJq(expr: string): Promise<void> {
  const jq = await jqModule();
  const wrapped = await jq.raw(null, `limit(0;\n${expr}\n)`, ['-n']);
  if (wrapped.exitCode === 0) return;
  // The wrapper shifts jq's line numbers, so the message comes from the expression alone: it fails to
  // compile as the wrapped one did (jq's exit 3), so it runs nothing.
  const alone = await jq.raw(null, expr, ['-n']);
  throw jqFailure(alone.exitCode === 3 ? alone.stderr : wrapped.stderr);
}

/**
 * Runs `expr` on `input` and returns what jq prints with `-r` (one line per result), or throws jq's message (exit 2).
 * `$ENV` and `env` are `environ`, as in jq on the command line: the WebAssembly build would otherwise see
 * its own made-up environment (HOME=/home/web_user), so the expression runs with both bound to it. The
 * expression has compiled alone already (checkJq), and a runtime message names no position.
 */
export async function runJq(expr: string, input: unknown, environ: NodeJS.ProcessEnv = {}): Promise<string> {
  const jq = await jqModule();
  const program = `$__formctl_env as $ENV | def env: $ENV;\n${expr}`;
  const r = await jq.raw(input as Parameters<JqModule['raw']>[0], program, ['-r', '--argjson', '__formctl_env', JSON.stringify(environ)]);
  const out = r.stdout === '' ? '' : r.stdout.endsWith('\n') ? r.stdout : `${r.stdout}\n`;
  if (r.exitCode !== 0) throw Object.assign(jqFailure(r.stderr), { partial: out });
  return out;
}
