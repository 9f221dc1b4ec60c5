#!/usr/bin/env node
// Sandbox throughput benchmark. Run after `npm run build`:
//   node bench/sandbox.mjs [--duration 5] [--concurrency 16]
// The parent starts the built sandbox (rate limit off, port 0, 127.0.0.1 only) and a bare node:http
// baseline answering `{}`; a second node process drives a bounded mixed load against each in turn
// (70% reads: form list, form get, submission page; 30% writes: create form, patch submission,
// public answer) and reports requests/second, p50/p99 latency, errors, and the ratio to the baseline.
// Bounded by time (--duration seconds per target) and by count (MAX_REQUESTS); it stops by itself.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const MAX_REQUESTS = 500_000;

function flag(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? Number(process.argv[i + 1]) : fallback;
}

// ── client process ─────────────────────────────────────────────────────────
async function client(cfg) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: cfg.concurrency });
  const base = new URL(cfg.url);
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

  function request(method, path, body) {
    return new Promise((resolve) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(
        {
          host: base.hostname,
          port: base.port,
          method,
          path,
          agent,
          headers: {
            Authorization: `Bearer ${cfg.token}`,
            Accept: 'application/json',
            ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', () => resolve(0));
      req.end(payload);
    });
  }

  const formBody = (n) => ({
    workspace_id: cfg.benchWorkspaceId,
    title: `Bench ${n}`,
    visibility: 'public',
    language: 'en',
    properties: [{ id: 'name', type: 'text', name: 'Name', required: true }],
  });
  const ops = [
    [0.25, () => request('GET', `/open/workspaces/${cfg.workspaceId}/forms?per_page=10`)],
    [0.25, () => request('GET', `/open/forms/${cfg.formId}`)],
    [0.2, () => request('GET', `/open/forms/${cfg.formId}/submissions?per_page=20&page=${1 + Math.floor(rand() * 5)}`)],
    [0.1, (n) => request('POST', '/open/forms', formBody(n))],
    [
      0.1,
      () => request('PUT', `/open/forms/${cfg.formId}/submissions/${1 + Math.floor(rand() * cfg.submissions)}`, { data: { comments: `edited ${rand()}` } }),
    ],
    [0.1, (n) => request('POST', `/forms/${cfg.formSlug}/answer`, { name: `Bench ${n}`, rating: 5 })],
  ];
  const pick = () => {
    let r = rand();
    for (const [weight, op] of ops) if ((r -= weight) < 0) return op;
    return ops[0][1];
  };

  const latencies = [];
  let errors = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = started + cfg.durationMs;
  async function worker() {
    while (performance.now() < deadline && issued < MAX_REQUESTS) {
      const n = issued++;
      const t0 = performance.now();
      const status = await pick()(n);
      latencies.push(performance.now() - t0);
      if (status < 200 || status >= 300) errors += 1;
    }
  }
  await Promise.all(Array.from({ length: cfg.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  process.stdout.write(JSON.stringify({ requests: latencies.length, seconds, rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors }));
}

// ── parent process ─────────────────────────────────────────────────────────
function runClient(cfg) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--client', JSON.stringify(cfg)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`client exited with ${code}`))));
  });
}

function line(label, r) {
  return `${label.padEnd(9)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms   errors ${r.errors}   (${r.requests} requests in ${r.seconds.toFixed(1)} s)`;
}

async function main() {
  const dist = new URL('../dist/sandbox.js', import.meta.url);
  if (!existsSync(dist)) {
    console.error('dist/sandbox.js is missing: run `npm run build` first.');
    process.exit(1);
  }
  const { startSandbox } = await import(dist.href);
  const durationMs = flag('duration', 5) * 1000;
  const concurrency = flag('concurrency', 16);
  const submissions = 500;

  const sb = await startSandbox({ port: 0, host: '127.0.0.1', rateLimit: 0, seed: submissions });
  const created = await fetch(`${sb.url}/open/workspaces/create`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sb.tokens.all}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Bench' }),
  }).then((r) => r.json());
  const common = {
    token: sb.tokens.all,
    workspaceId: sb.workspaceId,
    benchWorkspaceId: created.workspace_id,
    formId: sb.formId,
    formSlug: sb.formSlug,
    submissions,
    durationMs,
    concurrency,
  };

  const baseline = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 2 });
      res.end('{}');
    });
  });
  await new Promise((resolve) => baseline.listen(0, '127.0.0.1', resolve));

  console.log(
    `formctl sandbox benchmark: ${concurrency} concurrent connections, ${durationMs / 1000} s per target, 70% reads / 30% writes, Node ${process.version}`,
  );
  const sandboxResult = await runClient({ ...common, url: sb.url });
  console.log(line('sandbox', sandboxResult));
  const baselineResult = await runClient({ ...common, url: `http://127.0.0.1:${baseline.address().port}` });
  console.log(line('baseline', baselineResult));
  console.log(
    `ratio     sandbox throughput = ${(sandboxResult.rps / baselineResult.rps).toFixed(2)}× the bare node:http server answering {} under the same load`,
  );

  baseline.closeAllConnections();
  await new Promise((resolve) => baseline.close(resolve));
  await sb.close();
  if (sandboxResult.errors > 0) process.exitCode = 1;
}

if (process.argv[2] === '--client') await client(JSON.parse(process.argv[3]));
else await main();
