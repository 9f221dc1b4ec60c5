#!/usr/bin/env node
// Export streaming benchmark: formctl's `submission export` against `curl -o` on the same local
// server, for a 256 MiB and a 1 GiB CSV. Prints throughput, the ratio to curl, and formctl's peak RSS,
// for this Node and any other given with --node (or FORMCTL_BENCH_NODES, paths separated by ':').
// Usage: npm run build && node bench/export.mjs [--rounds N] [--rate Mbit/s] [--node /path/to/node]… [sizesInMiB…]
// (default: 5 rounds; 256 1024). Each round runs curl and formctl on every Node, curl first or last
// in turn; the figures are the medians over the rounds (a single run swings ±40 % on the shared VM).
// Beside them, two bare download scripts on every Node, each writing chunk by chunk with writeSync
// as formctl does: one through undici (bundled from its public entry point, as formctl bundles it)
// and one through node:http. They show what Node and undici allow before formctl does anything.
// Each client's CPU time (user + system, all threads) is read from /proc with its peak RSS: on a
// shared 2-core machine the server and the client compete for the cores, so CPU time is the figure
// the load disturbs least. formctl's runs include its start-up and the GET of the form users pay too.
// Loopback only; every file it writes is removed at the end.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportGoalsLine } from './export-goals.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'formctl.js');
const MiB = 1024 * 1024;
const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 5;
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number of at least 1');
// --rate <Mbit/s>: the server paces the CSV as a network link of that speed would (e.g. 1000 for
// 1 Gbit/s), so the bench also shows the path users run: an export from a server across a network,
// where the link, not the client's CPU, sets the pace. Without it the server sends as fast as
// loopback takes it, and the client's CPU time per byte decides (the harder comparison).
const rateAt = args.indexOf('--rate');
const rateMbit = rateAt >= 0 ? Number(args.splice(rateAt, 2)[1]) : undefined;
if (rateMbit !== undefined && !(rateMbit > 0)) throw new Error('--rate takes a link speed in Mbit/s, e.g. 1000');
const bytesPerMs = rateMbit === undefined ? Infinity : (rateMbit * 1e6) / 8 / 1000;
const nodes = [process.execPath];
for (let i = args.indexOf('--node'); i >= 0; i = args.indexOf('--node')) nodes.push(args.splice(i, 2)[1]);
for (const p of (process.env.FORMCTL_BENCH_NODES ?? '').split(':')) if (p) nodes.push(p);
const versions = nodes.map((n) => spawnSync(n, ['-v'], { encoding: 'utf8' }).stdout.trim());
const sizes = (args.length ? args : ['256', '1024']).map((s) => Number(s) * MiB);

// One MiB of realistic rows, sent again and again (the server must not be the bottleneck).
let block = '';
for (let i = 0; block.length < MiB; i++) block += `${i},"Person ${i}",person${i}@example.com,${i % 5},"Some comment, with a comma",2026-01-01 10:00\n`;
const BLOCK = Buffer.from(block.slice(0, MiB));
const HEADER = Buffer.from('\uFEFFid,Name,Email,Rating,Comments,created_at\n');
const FORM = JSON.stringify({
  id: 1,
  slug: 'bench',
  title: 'Bench',
  visibility: 'public',
  properties: ['name', 'email', 'rating', 'comments'].map((id) => ({ id, type: 'text', name: id })),
});

let size = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/open/forms/1') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(FORM);
  }
  if (req.method === 'POST' && req.url === '/open/forms/1/submissions/export') {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename=bench-submission-data.csv', 'content-length': String(size) });
    let left = size;
    const started = performance.now();
    // Paced, the body goes out in 64 KiB pieces, each no earlier than the link would carry it.
    const piece = bytesPerMs === Infinity ? BLOCK.length : 64 * 1024;
    const pump = () => {
      while (left > 0) {
        const due = started + (size - left) / bytesPerMs;
        if (due > performance.now() + 1) return void setTimeout(pump, due - performance.now());
        const chunk = left === size ? HEADER : BLOCK.subarray(0, Math.min(piece, left));
        left -= chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    return pump();
  }
  res.writeHead(404).end();
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}`;
const dir = mkdtempSync(join(tmpdir(), 'formctl-bench-export-'));

const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** Runs a command, sampling its peak RSS (VmHWM) and CPU time from /proc while it runs (the last sample may miss its final 20 ms). */
function timed(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const childEnv = { ...process.env, ...env };
    for (const name of ['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS']) delete childEnv[name];
    const child = spawn(cmd, args, { env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let peakKb = 0;
    let cpu = 0;
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const sample = () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
        // Fields 14 and 15 of /proc/PID/stat (after the name in parentheses): user and system ticks.
        const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        cpu = Math.max(cpu, (Number(f[11]) + Number(f[12])) / TICKS);
      } catch {
        // The child has exited between two samples: keep the figures seen so far.
      }
    };
    const timer = setInterval(sample, 20);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      const secs = Number(process.hrtime.bigint() - t0) / 1e9;
      if (code !== 0) return reject(new Error(`${cmd} exited ${code}: ${err}`));
      resolve({ secs, cpu, peakMb: peakKb / 1024 });
    });
  });
}

// The bare scripts: the same POST, each chunk written with writeSync as it arrives.
const exportUrl = `${url}/open/forms/1/submissions/export`;
const WRITE = 'for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at);';
const undiciScript = join(dir, 'undici-download.mjs');
await (
  await import('esbuild')
).build({
  stdin: {
    contents: `import { openSync, closeSync, writeSync } from 'node:fs';
const { request } = await import('undici');
const fd = openSync(process.argv[2], 'w');
const r = await request(${JSON.stringify(exportUrl)}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
for await (const chunk of r.body) { ${WRITE} }
closeSync(fd);`,
    resolveDir: ROOT,
  },
  outfile: undiciScript,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  banner: { js: "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);" },
  logLevel: 'warning',
});
const httpScript = join(dir, 'http-download.mjs');
writeFileSync(
  httpScript,
  `import { openSync, closeSync, writeSync } from 'node:fs';
import { request } from 'node:http';
const fd = openSync(process.argv[2], 'w');
request(${JSON.stringify(exportUrl)}, { method: 'POST', headers: { 'content-type': 'application/json' } }, (r) => {
  r.on('data', (chunk) => { ${WRITE} });
  r.on('end', () => closeSync(fd));
}).end('{}');
`,
);

const hasCurl = spawnSync('curl', ['--version']).status === 0;
if (!hasCurl) console.log('curl not found: printing formctl figures only');
const body = JSON.stringify({ columns: { name: true, email: true, rating: true, comments: true, created_at: true } });
const env = { FORMCTL_BASE_URL: url, FORMCTL_TOKEN: 'bench', FORMCTL_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = [];
try {
  const load = (await import('node:os')).loadavg()[0];
  if (load > (await import('node:os')).availableParallelism()) console.log(`note: load average ${load.toFixed(1)} is above the core count; rerun when quieter`);
  console.log(`median of ${rounds} round(s), each running curl and formctl on every Node, curl first or last in turn`);
  console.log(
    rateMbit === undefined
      ? "link: loopback, unpaced (the client's CPU sets the pace)"
      : `link: paced at ${rateMbit} Mbit/s (${((bytesPerMs * 1000) / MiB).toFixed(0)} MiB/s)`,
  );
  console.log('client                  size      MiB/s  ratio to curl  CPU s  peak RSS');
  for (const s of sizes) {
    size = s;
    const theirs = join(dir, 'curl.csv');
    const runFormctl = async (node) => {
      const ours = join(dir, 'formctl.csv');
      const r = await timed(node, [BIN, 'submission', 'export', '1', '-o', ours, '--clobber'], env);
      if (statSync(ours).size !== s) throw new Error(`formctl wrote ${statSync(ours).size} bytes, expected ${s}`);
      rmSync(ours);
      return r;
    };
    const runCurl = async () => {
      const r = await timed(
        'curl',
        ['-sS', '-X', 'POST', '-H', 'content-type: application/json', '-d', body, '-o', theirs, `${url}/open/forms/1/submissions/export`],
        {},
      );
      if (statSync(theirs).size !== s) throw new Error(`curl wrote ${statSync(theirs).size} bytes, expected ${s}`);
      rmSync(theirs);
      return r;
    };
    const runScript = async (node, script) => {
      const out = join(dir, 'script.csv');
      const r = await timed(node, [script, out], {});
      if (statSync(out).size !== s) throw new Error(`${script} wrote ${statSync(out).size} bytes, expected ${s}`);
      rmSync(out);
      return r;
    };
    const f = nodes.map(() => []);
    const u = nodes.map(() => []);
    const h = nodes.map(() => []);
    const c = [];
    for (let round = 0; round < rounds; round++) {
      if (hasCurl && round % 2 === 1) c.push(await runCurl());
      for (const [k, node] of nodes.entries()) {
        f[k].push(await runFormctl(node));
        u[k].push(await runScript(node, undiciScript));
        h[k].push(await runScript(node, httpScript));
      }
      if (hasCurl && round % 2 === 0) c.push(await runCurl());
    }
    const cSecs = hasCurl ? median(c.map((x) => x.secs)) : undefined;
    const row = (name, runs) => {
      const secs = median(runs.map((x) => x.secs));
      const peak = Math.max(...runs.map((x) => x.peakMb));
      const ratio = cSecs ? cSecs / secs : undefined;
      console.log(
        `${name.padEnd(22)} ${String(s / MiB).padStart(5)} MiB ${(s / MiB / secs).toFixed(0).padStart(6)}  ${ratio ? ratio.toFixed(2).padStart(8) : '     n/a'}     ${median(
          runs.map((x) => x.cpu),
        )
          .toFixed(2)
          .padStart(6)}  ${peak.toFixed(0).padStart(5)} MB`,
      );
      if (process.env.BENCH_VERBOSE) console.log(`  ${runs.map((x) => x.secs.toFixed(2)).join(' ')}`);
      return { ratio, peak };
    };
    if (hasCurl) row('curl', c);
    for (const [k, version] of versions.entries()) {
      const mine = row(`formctl ${version}`, f[k]);
      results.push({ version, size: s, ...mine });
      row(`  undici script`, u[k]);
      row(`  node:http script`, h[k]);
    }
  }
  // #20's goals (bench/export-goals.mjs).
  for (const version of versions) {
    const mine = results.filter((r) => r.version === version);
    console.log(`${version} goals: ${exportGoalsLine(mine, rateMbit)}`);
  }
} finally {
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
