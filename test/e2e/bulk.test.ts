import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { sandboxForTest } from '../helpers/fixture.js';
import { FLAVORS } from '../helpers/sandbox.js';

describe.each(FLAVORS)('bulk update on the %s flavour (e2e)', (flavor) => {
  it('60 lines under a 600/min limit: all ok, zero 429s, then a failed line gives exit 10 and --resume retries only it', async () => {
    const fx = await sandboxForTest({ flavor, seed: 60, rateLimit: 600 });
    // The deployed flavour seeds active integrations: a run that fires them again needs --yes off a terminal.
    const yes = flavor === 'spec' ? [] : ['--yes'];
    const from = join(fx.work, 'in.ndjson');
    const results = join(fx.work, 'results.ndjson');
    writeFileSync(from, Array.from({ length: 60 }, (_, i) => JSON.stringify({ submission_id: String(i + 1), Comments: `bulk ${i + 1}` })).join('\n') + '\n');
    const r = await runFormctl(['--debug', 'submission', 'update', String(fx.sb.formId), '--from', from, '--results', results, '--concurrency', '4', ...yes], {
      env: fx.env,
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(0);
    // Every request the client made, as logged by --debug: the form, one list page (the current
    // answers), the integrations, and 60 PUTs; none answered 429.
    const answers = r.stderr.split('\n').filter((l) => /^\[debug\] < \d{3} /.test(l));
    expect(answers.length).toBe(63);
    expect(answers.filter((l) => l.startsWith('[debug] < 429'))).toEqual([]);
    const lines = readFileSync(results, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // Each line's intent (`sending`), then its outcome.
    expect(lines.filter((l) => l.status === 'sending').length).toBe(60);
    expect(lines.filter((l) => l.status === 'ok').length).toBe(60);
    expect(lines.length).toBe(120);
    const check = await runFormctl(['submission', 'list', String(fx.sb.formId), '--search', 'bulk 42', '--json', 'id'], { env: fx.env });
    expect(JSON.parse(check.stdout)).toEqual([{ id: 42 }]);

    // A second file with a bad line: exit 10; after fixing it, --resume sends only that line.
    const from2 = join(fx.work, 'in2.ndjson');
    const results2 = join(fx.work, 'results2.ndjson');
    writeFileSync(from2, '{"submission_id":"1","Name":"one"}\n{"submission_id":"2","Nme":"two"}\n{"submission_id":"3","Name":"three"}\n');
    const r2 = await runFormctl(['submission', 'update', String(fx.sb.formId), '--from', from2, '--results', results2, ...yes], { env: fx.env });
    expect(r2.code).toBe(10);
    expect(r2.stderr).toContain('error: 1 of 3 lines failed.');
    writeFileSync(from2, '{"submission_id":"1","Name":"one"}\n{"submission_id":"2","Name":"two"}\n{"submission_id":"3","Name":"three"}\n');
    const r3 = await runFormctl(['--debug', 'submission', 'update', String(fx.sb.formId), '--from', from2, '--results', results2, '--resume', ...yes], {
      env: fx.env,
    });
    expect(r3.code).toBe(0);
    expect(r3.stderr.split('\n').filter((l) => l.startsWith('[debug] > PUT'))).toEqual([`[debug] > PUT ${fx.sb.url}/open/forms/${fx.sb.formId}/submissions/2`]);
    expect(r3.stderr).toContain('3/3 lines · 1 ok · 0 failed · 2 skipped');
  });

  it('the lines `submission list --ndjson` prints, edited, are what --from takes (as --file takes one)', async () => {
    const fx = await sandboxForTest({ flavor, seed: 3 });
    const yes = flavor === 'spec' ? [] : ['--yes'];
    const listed = await runFormctl(['submission', 'list', String(fx.sb.formId), '--ndjson'], { env: fx.env });
    expect(listed.code).toBe(0);
    const records = listed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; data: Record<string, unknown> });
    expect(records.length).toBe(3);
    const from = join(fx.work, 'listed.ndjson');
    writeFileSync(from, records.map((r) => JSON.stringify({ ...r, data: { ...r.data, comments: `relisted ${r.id}` } })).join('\n') + '\n');
    const r = await runFormctl(['submission', 'update', String(fx.sb.formId), '--from', from, ...yes], { env: fx.env });
    expect(r.stderr).toContain('3/3 lines · 3 ok · 0 failed');
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).status),
    ).toEqual(['ok', 'ok', 'ok']);
    const after = await runFormctl(['submission', 'list', String(fx.sb.formId), '--ndjson'], { env: fx.env });
    for (const line of after.stdout.trim().split('\n')) {
      const rec = JSON.parse(line) as { id: number; data: Record<string, unknown> };
      const before = records.find((b) => b.id === rec.id)!;
      expect(rec.data).toEqual({ ...before.data, comments: `relisted ${rec.id}` });
    }
  });
});
