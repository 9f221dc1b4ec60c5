#!/usr/bin/env node
// Request economy of submission work against the sandbox (default: the deployed flavour), counted from
// --debug's request lines, next to the minimum any client needs:
//   1. one `submission update` on a 20,000-row form (a submission in the middle of the list);
//   2. a 2,000-line `submission update --from` (every 10th submission of that form);
//   3. a 20,000-row `submission export` on the deployed flavour (the job's status is closed to tokens,
//      so it is done in chunks of 1,000 ids), under the sandbox's own limits (100 requests/min per
//      user, 10 exports/min): its wall time next to the least time the export limit allows.
// Usage: npm run build && node bench/requests.mjs [--flavor deployed|spec] [--rows 20000] [--skip-updates] [--skip-export]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'formctl.js');
const { startSandbox } = await import(join(ROOT, 'dist', 'sandbox.js'));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const FLAVOR = arg('--flavor', 'deployed');
const ROWS = Number(arg('--rows', 20000));
const LINES = 2000;
const PAGES = Math.ceil(ROWS / 100);
const dir = mkdtempSync(join(tmpdir(), 'formctl-bench-requests-'));

function run(sb, args) {
  const env = {
    PATH: process.env.PATH,
    FORMCTL_BASE_URL: sb.url,
    FORMCTL_TOKEN: sb.tokens.all,
    FORMCTL_CONFIG_DIR: join(dir, 'config'),
    FORMCTL_CACHE_DIR: join(dir, 'cache'),
    NO_COLOR: '1',
  };
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    let stderr = '';
    const child = spawn(process.execPath, [BIN, '--debug', ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const sent = stderr.split('\n').filter((l) => /^\[debug\] > [A-Z]+ /.test(l));
      const kind = (l) => {
        const m = /^\[debug\] > ([A-Z]+) \S*?(\/open\/forms\/\d+(\/[a-z]+)?(\/export)?)/.exec(l);
        if (!m) return 'other';
        if (m[1] === 'GET' && !m[3]) return 'form';
        if (m[1] === 'GET' && m[3] === '/submissions' && !m[4]) return 'list page';
        if (m[3] === '/integrations') return 'integrations';
        if (m[1] === 'POST' && m[4]) return 'export';
        if (m[1] === 'GET' && m[4]) return 'export status';
        return m[1];
      };
      const counts = {};
      for (const l of sent) counts[kind(l)] = (counts[kind(l)] ?? 0) + 1;
      resolve({
        code,
        secs: (Date.now() - t0) / 1000,
        total: sent.length,
        counts,
        tooMany: stderr.split('\n').filter((l) => l.startsWith('[debug] < 429')).length,
        stderr,
      });
    });
  });
}

const show = (r) =>
  Object.entries(r.counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(' + ');
try {
  const sb = process.argv.includes('--skip-updates') ? undefined : await startSandbox({ port: 0, rateLimit: 0, seed: ROWS, flavor: FLAVOR });
  if (sb)
    try {
      const pages = PAGES;
      const mid = Math.ceil(ROWS / 2);
      const one = await run(sb, ['submission', 'update', String(sb.formId), String(mid), '--set', 'Comments=bench']);
      console.log(`single update (${ROWS} rows, ${pages} list pages; exit ${one.code}): ${one.total} requests = ${show(one)}`);
      console.log(`  minimum: 3 (the form, the one list page that holds it, the PUT); a scan of the list would cost up to ${pages + 3}`);

      const from = join(dir, 'lines.ndjson');
      writeFileSync(
        from,
        Array.from({ length: LINES }, (_, i) => JSON.stringify({ id: ROWS - i * Math.floor(ROWS / LINES), Comments: `bulk ${i}` })).join('\n') + '\n',
      );
      const bulk = await run(sb, [
        'submission',
        'update',
        String(sb.formId),
        '--from',
        from,
        '--results',
        join(dir, 'results.ndjson'),
        '--rate-limit',
        '600000',
        '--concurrency',
        '8',
        '--yes',
      ]);
      console.log(`bulk update, ${LINES} lines spread over the ${ROWS} rows (exit ${bulk.code}): ${bulk.total} requests = ${show(bulk)}`);
      console.log(
        `  minimum: ${LINES + 1 + pages} (the form, the ${pages} list pages holding those submissions, ${LINES} PUTs); without the list read: ${LINES + 1}`,
      );
    } finally {
      await sb.close();
    }

  if (!process.argv.includes('--skip-export')) {
    // The sandbox's own limits: 100 requests a minute per user, exports 10 a minute (deployed flavour).
    const sb2 = await startSandbox({ port: 0, seed: ROWS, flavor: FLAVOR, rateLimit: 100 });
    try {
      const out = join(dir, 'export.csv');
      const r = await run(sb2, ['submission', 'export', String(sb2.formId), '-o', out]);
      const rows = readFileSync(out, 'utf8').trimEnd().split('\n').length - 1;
      const exports = r.counts.export ?? 0;
      // 10 exports in each 60 s window that opens with its first request: the last one can go at the start of window ceil(n/10).
      const allowed = Math.max(1, Math.ceil(exports / 10) - 1) * 60;
      const chunks = Math.ceil(ROWS / 1000);
      console.log(`export of ${ROWS} rows (exit ${r.code}, ${rows} rows written): ${r.total} requests = ${show(r)}; 429 answers: ${r.tooMany}`);
      console.log(
        `  minimum: ${1 + PAGES + chunks} (the form, ${PAGES} list pages for the ids, ${chunks} chunk exports); formctl also sends the first export (which answers with the job) and reads its status once on each path`,
      );
      console.log(
        `  time: ${r.secs.toFixed(1)} s; the export limit allows ${exports} exports in ${allowed} s at best: ratio ${(r.secs / allowed).toFixed(3)} (goal <= 1.1)`,
      );
    } finally {
      await sb2.close();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
