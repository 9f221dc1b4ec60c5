#!/usr/bin/env node
// Startup bench: median wall time of formctl's cheapest commands next to `node -e 0`.
// Usage: npm run build && node bench/startup.mjs [--runs 15] [--warmup 2] [--bin path/to/formctl.js] [--cold]
// Loopback only: `workspace list` talks to a node:http server this script starts on 127.0.0.1:0.
// Bounded: every spawn has a 10 s kill timer and the whole bench stops after 60 s.
// The cache directory is a fresh temporary one: the warm-up runs write the code cache that Node 20
// runs use (bin/formctl.js), so the timed runs are warm, as every run after a user's first is.
// --cold also times `--help` with FORMCTL_CODE_CACHE=0 (the ESM build, no code cache).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const RUNS = arg('--runs', 15);
const WARMUP = arg('--warmup', 2);
const binAt = process.argv.indexOf('--bin');
const BIN = binAt > 0 ? process.argv[binAt + 1] : fileURLToPath(new URL('../bin/formctl.js', import.meta.url));
const deadline = Date.now() + 60_000;

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/open/workspaces') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify([{ id: 1, name: 'Acme', icon: '🚀', is_readonly: false }, { id: 2, name: 'Side project', icon: null, is_readonly: false }]));
  } else {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"message":"Not found"}');
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${server.address().port}`;
const home = mkdtempSync(join(tmpdir(), 'formctl-bench-'));

// Both sides run without NODE_EXTRA_CA_CERTS (loading a CA bundle costs time unrelated to formctl).
const env = { ...process.env, NO_COLOR: '1', FORMCTL_BASE_URL: baseUrl, FORMCTL_TOKEN: 'bench-token', FORMCTL_CONFIG_DIR: join(home, 'config'), FORMCTL_STATE_DIR: join(home, 'state'), FORMCTL_CACHE_DIR: join(home, 'cache'), HOME: home };
delete env.NODE_EXTRA_CA_CERTS;
delete env.NODE_OPTIONS;
delete env.FORMCTL_DEBUG;

/** Runs one process to completion and returns its wall time in ms (spawn to exit). */
function once(argv, extraEnv) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, argv, { env: extraEnv ? { ...env, ...extraEnv } : env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`${argv.join(' ')} exited ${code}: ${err.trim()}`));
      else resolve(ms);
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const cases = [
  ['node -e 0', ['-e', '0']],
  ['formctl --version', [BIN, '--version']],
  ['formctl --help', [BIN, '--help']],
  ['formctl workspace list --json', [BIN, 'workspace', 'list', '--json']],
];
if (process.argv.includes('--cold')) cases.push(['--help, ESM build (no cache)', [BIN, '--help'], { FORMCTL_CODE_CACHE: '0' }]);
/** Before issue #2's changes (commit c42ec02), same machine, medians of 15 interleaved runs (docs/performance.md). */
const BEFORE = { 'node -e 0': 38, 'formctl --version': 88, 'formctl --help': 117, 'formctl workspace list --json': 689 };
const goals = { 'formctl --version': 1.5, 'formctl --help': 1.5, 'formctl workspace list --json': 3 };

try {
  const times = new Map(cases.map(([name]) => [name, []]));
  for (let i = 0; i < Math.max(WARMUP, 1); i++) for (const [, argv, extra] of cases) await once(argv, extra);
  // Interleaved so that machine noise (2 cores shared with others) hits every case alike.
  for (let i = 0; i < RUNS; i++) {
    if (Date.now() > deadline) throw new Error('bench exceeded 60 s; try --runs 5');
    for (const [name, argv, extra] of cases) times.get(name).push(await once(argv, extra));
  }
  const base = median(times.get('node -e 0'));
  console.log(`node ${process.version}, ${RUNS} runs after ${WARMUP} warm-ups, median wall time`);
  const load = loadavg()[0];
  if (load > availableParallelism()) {
    console.log(`  (load average ${load.toFixed(1)} on ${availableParallelism()} cores: wall times are inflated; compare ratios, rerun when quieter)`);
  }
  for (const [name] of cases) {
    const m = median(times.get(name));
    const ratio = m / base;
    const goal = goals[name];
    const verdict = goal ? `${ratio.toFixed(2)}x (goal <= ${goal}x ${ratio <= goal ? 'ok' : 'MISSED'})` : '1.00x';
    const before = BEFORE[name] ? `   (before: ${BEFORE[name]} ms, ${(BEFORE[name] / BEFORE['node -e 0']).toFixed(2)}x)` : '';
    console.log(`  ${name.padEnd(32)} ${m.toFixed(1).padStart(7)} ms  ${verdict}${before}`);
  }
} finally {
  server.close();
  rmSync(home, { recursive: true, force: true });
}
