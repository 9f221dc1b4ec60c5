// Export jobs do not pile up in the sandbox's memory: 150 async exports of a
// 20,000-row form once added 276 MB of RSS. Job files are on disk (a temporary directory removed on
// close), and at most MAX_EXPORT_JOBS jobs are kept. Measured as the bytes still held after a forced
// garbage collection, so the bound does not depend on when the collector happens to run.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MAX_EXPORT_JOBS } from '../../src/sandbox/export/jobs.js';
import { boot, call } from './helpers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Bytes held by the heap and by Buffers after a full collection. */
function retained(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

const exportDirs = () => new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('formctl-sandbox-exports-')));

describe('sandbox export jobs', () => {
  it('150 async exports of a 20,000-row form keep memory flat, the oldest jobs expire, and the files go with close', { timeout: 240_000 }, async () => {
    const dirsBefore = exportDirs();
    const sb = await boot({ seed: 20_000, exportJobStepMs: 1 });
    const path = `/open/forms/${sb.formId}/submissions/export`;
    const form = await call(sb, 'GET', `/open/forms/${sb.formId}`);
    const columns: Record<string, boolean> = { created_at: true };
    for (const p of (form.json as { properties: Array<{ id: string }> }).properties) columns[p.id] = true;

    // One job first, downloaded: how big one file is.
    const first = await call(sb, 'POST', path, { columns });
    const firstId = (first.json as { job_id: string }).job_id;
    const status = async (id: string) => call(sb, 'GET', `${path}/${id}/status`);
    const done = async (id: string) => {
      for (;;) {
        const s = await status(id);
        if ((s.json as { status?: string }).status === 'completed') return s.json as { file_url: string };
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const firstFile = await (await fetch((await done(firstId)).file_url)).arrayBuffer();
    expect(firstFile.byteLength).toBeGreaterThan(1_000_000);

    const before = retained();
    const ids: string[] = [];
    for (let i = 0; i < 150; i++) {
      const r = await call(sb, 'POST', path, { columns });
      expect(r.status).toBe(200);
      ids.push((r.json as { job_id: string }).job_id);
    }
    for (const id of ids.slice(-MAX_EXPORT_JOBS)) await done(id);
    const grown = retained() - before;
    // 150 files held in memory would be 150 × the file size (about 250 MB); 20 files' worth is slack for the job records.
    expect(grown).toBeLessThan(20 * firstFile.byteLength);

    // The oldest jobs expired: their status is the service's answer for an expired job.
    const expired = await status(ids[0]!);
    expect(expired.status).toBe(404);
    expect((expired.json as { message: string }).message).toBe('Export job not found or has expired.');
    const kept = await status(ids.at(-1)!);
    expect(kept.status).toBe(200);
    const last = await fetch((kept.json as { file_url: string }).file_url);
    expect(last.status).toBe(200);
    expect((await last.arrayBuffer()).byteLength).toBe(firstFile.byteLength);

    // Other test files' sandboxes may make export directories at the same moment: this one holds the newest job's file.
    const dirs = [...exportDirs()].filter((d) => !dirsBefore.has(d) && existsSync(join(tmpdir(), d, `${ids.at(-1)!}.csv`)));
    expect(dirs).toHaveLength(1);
    expect(readdirSync(join(tmpdir(), dirs[0]!)).length).toBeLessThanOrEqual(MAX_EXPORT_JOBS);
    await sb.close();
    expect(existsSync(join(tmpdir(), dirs[0]!))).toBe(false);
  });
});

describe('sandbox export directories', () => {
  it('the directory of a sandbox whose process is gone (killed with SIGKILL) is removed by the next one, a running one kept', async () => {
    const dead = join(tmpdir(), `formctl-sandbox-exports-${2 ** 22 - 7}-left`);
    const alive = join(tmpdir(), `formctl-sandbox-exports-${process.ppid}-left`);
    for (const d of [dead, alive]) {
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, 'job.csv'), 'id\n');
    }
    const sb = await boot({ seed: 3, exportAsyncThreshold: 0, exportJobStepMs: 1 });
    try {
      const r = await call(sb, 'POST', `/open/forms/${sb.formId}/submissions/export`, { columns: { created_at: true } });
      expect(r.status).toBe(200);
      const id = (r.json as { job_id: string }).job_id;
      // The directory is made (and the others swept) when the job starts writing its file.
      while ((await call(sb, 'GET', `/open/forms/${sb.formId}/submissions/export/${id}/status`)).json?.status !== 'completed') {
        await new Promise((res) => setTimeout(res, 10));
      }
      expect(existsSync(dead)).toBe(false);
      expect(existsSync(join(alive, 'job.csv'))).toBe(true);
    } finally {
      await sb.close();
      rmSync(alive, { recursive: true, force: true });
      rmSync(dead, { recursive: true, force: true });
    }
  });
});
