// kill -9 under write load: every write the sandbox answered 200 to is in the data file afterwards.
// Spawns the built binary (`npm run build` first), like the end-to-end tests.
import { spawnTracked as spawn } from '../helpers/processes.js';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { boot, call, tempDir } from '../sandbox/helpers.js';

interface Child {
  info: { url: string; form_id: number; form_slug: string };
  kill(): Promise<void>;
}

async function startChild(dataFile: string): Promise<Child> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json', '--rate-limit', '0', '--seed', '1', '--data', dataFile], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('close', () => reject(new Error('sandbox exited before printing')));
  });
  return {
    info: JSON.parse(line),
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Posts answers from `workers` concurrent loops until stopped; collects the ids answered 200. */
function load(url: string, slug: string, workers: number) {
  const acked: string[] = [];
  let stop = false;
  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let i = 0; !stop; i++) {
      try {
        const res = await fetch(`${url}/forms/${slug}/answer`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `w${w}-${i}` }),
        });
        const body = (await res.json()) as { submission_id?: string };
        if (res.status === 200 && body.submission_id) acked.push(body.submission_id);
      } catch {
        return; // the process was killed under this request: it was never acknowledged
      }
    }
  });
  return {
    acked,
    stop: async () => {
      stop = true;
      await Promise.all(loops);
    },
  };
}

describe('sandbox data file durability', () => {
  it('loses no acknowledged write across kill -9 cycles, and removes stale temp files at start', async () => {
    const dir = await tempDir();
    const dataFile = join(dir, 'state.json');
    const acked = new Set<string>();
    for (let cycle = 0; cycle < 4; cycle++) {
      const child = await startChild(dataFile);
      const run = load(child.info.url, child.info.form_slug, 10);
      // Kill in the middle of the load, once some writes were answered.
      while (run.acked.length < 60 + cycle * 20) await new Promise((r) => setTimeout(r, 5));
      await child.kill();
      await run.stop();
      for (const id of run.acked) acked.add(id);
    }
    // A temp file of a dead process, as a kill during a write leaves it.
    const stale = `${dataFile}.999999.deadbeef.tmp`;
    await writeFile(stale, '{"partial": ');
    const sb = await boot({ dataFile });
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    const list = await call(sb, 'GET', `/open/forms/1/submissions`);
    const stored = new Set((list.json as { submission_id: string }[]).map((s) => s.submission_id));
    const lost = [...acked].filter((id) => !stored.has(id));
    expect(acked.size).toBeGreaterThanOrEqual(260);
    expect(lost).toEqual([]);
  });
});
