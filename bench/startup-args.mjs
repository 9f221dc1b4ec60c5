// bench/startup.mjs's command line, read with Node's own parseArgs: an unknown option or a bad
// number is refused (rather than running the whole bench without it), --help prints the usage.
import { parseArgs } from 'node:util';

export const STARTUP_USAGE = `Usage: npm run build && node bench/startup.mjs [options]
  --runs <n>      timed runs of each case (default 15)
  --warmup <n>    untimed runs first, which also fill the compile cache (default 2)
  --node <path>   another Node binary to measure beside this one (repeatable; also FORMCTL_BENCH_NODES, ':'-separated)
  --bin <path>    another build's bin/formctl.js, measured beside this one for the one-request command
  -h, --help      print this and exit
`;

/** The options, `{ help: true }`, or `{ error }` (a one-line reason). */
export function startupArgs(argv, env = {}) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        runs: { type: 'string' },
        warmup: { type: 'string' },
        node: { type: 'string', multiple: true },
        bin: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    return { error: err.message };
  }
  if (values.help) return { help: true };
  const count = (name, def, min) => {
    const v = values[name] === undefined ? def : Number(values[name]);
    return Number.isInteger(v) && v >= min ? v : undefined;
  };
  const runs = count('runs', 15, 1);
  if (runs === undefined) return { error: `--runs takes a whole number of at least 1, not "${values.runs}"` };
  const warmup = count('warmup', 2, 0);
  if (warmup === undefined) return { error: `--warmup takes a whole number, not "${values.warmup}"` };
  const nodes = [...(values.node ?? []), ...(env.FORMCTL_BENCH_NODES ?? '').split(':').filter(Boolean)];
  return { runs, warmup, nodes, bin: values.bin };
}
