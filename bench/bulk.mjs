#!/usr/bin/env node
// Bulk update benchmark: 2,000 submission updates against the sandbox with a 6,000/min limit.
// Prints the achieved requests per minute as a fraction of the limit (goal ≥ 0.9) and the number
// of 429 answers the client saw (goal 0, from --debug's response lines).
// Usage: npm run build && node bench/bulk.mjs [count] [concurrency]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'formctl.js');
const { startSandbox } = await import(join(ROOT, 'dist', 'sandbox.js'));
const COUNT = Number(process.argv[2] ?? 2000);
const CONCURRENCY = Number(process.argv[3] ?? 8);
const LIMIT = 6000;

const sb = await startSandbox({ port: 0, rateLimit: LIMIT, seed: COUNT });
const dir = mkdtempSync(join(tmpdir(), 'formctl-bench-bulk-'));
try {
  const from = join(dir, 'updates.ndjson');
  const results = join(dir, 'results.ndjson');
  writeFileSync(from, Array.from({ length: COUNT }, (_, i) => JSON.stringify({ submission_id: String(i + 1), Comments: `bench ${i}` })).join('\n') + '\n');
  const args = [
    BIN,
    '--debug',
    'submission',
    'update',
    String(sb.formId),
    '--from',
    from,
    '--results',
    results,
    '--rate-limit',
    String(LIMIT),
    '--concurrency',
    String(CONCURRENCY),
  ];
  const env = { ...process.env, FORMCTL_BASE_URL: sb.url, FORMCTL_TOKEN: sb.tokens.all, FORMCTL_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' };
  let stderr = '';
  const t0 = Date.now();
  const code = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', resolve);
  });
  const wallSecs = (Date.now() - t0) / 1000;
  const lines = stderr.split('\n');
  const answers = lines.filter((l) => /^\[debug\] < \d{3} PUT /.test(l));
  const tooMany = lines.filter((l) => l.startsWith('[debug] < 429')).length;
  const ok = readFileSync(results, 'utf8')
    .trim()
    .split('\n')
    .filter((l) => JSON.parse(l).status === 'ok').length;
  const perMinute = (answers.length / wallSecs) * 60;
  console.log(`exit ${code}; ${ok}/${COUNT} ok; ${answers.length} PUT answers in ${wallSecs.toFixed(1)} s (whole process, startup included)`);
  console.log(`achieved ${perMinute.toFixed(0)}/min = ${(perMinute / LIMIT).toFixed(3)} of the ${LIMIT}/min limit; 429 answers: ${tooMany}`);
  console.log(
    lines
      .filter((l) => !l.startsWith('[debug]') && l.trim())
      .slice(-2)
      .join('\n'),
  );
} finally {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
}
