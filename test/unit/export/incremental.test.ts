import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { type SubmissionExportOptions, submissionExportRun } from '../../../src/commands/submission/export.js';
import { deployedFormBody } from '../../helpers/form-body.js';
import { fakeIO } from '../../helpers/io.js';
import { FLAVORS, type TestSandbox, csvRowIds, startTestSandbox } from '../../helpers/sandbox.js';

/** What a kill does to the run: it stops there; nothing after it happens. */
class Killed extends Error {}
type Step = 'listed' | 'pending' | 'written' | 'committed';

// A nightly job's contract (docs/submission-update.md, "Incremental exports"): every run that exits
// writes a file into an outbox, and a loader takes every file found there once the run has exited.
// Whatever step a run is killed at, the rows the loader receives over all runs are each submission
// exactly once: those of the same second as the boundary, those after a kill, and none of the
// submissions deleted before an export could see them.
describe.each(FLAVORS)('submission export --incremental, killed at each step (%s sandbox)', (flavor) => {
  let sb: TestSandbox;
  let dir: string;
  let client: ApiClient;
  let clock = Date.parse('2026-05-01T10:00:00.000Z');
  let formId: number;
  let slug: string;
  let field: string;
  const outbox = () => join(dir, 'outbox');
  const statePath = () => join(dir, 'state.json');
  /** Every id the loader received, in order. */
  const loaded: number[] = [];
  /** Ids of the submissions that exist (made, not deleted). */
  const alive = new Set<number>();
  let n = 0;

  beforeAll(async () => {
    sb = await startTestSandbox({ flavor, now: () => clock });
    dir = mkdtempSync(join(tmpdir(), 'formctl-incremental-'));
    mkdirSync(outbox());
    mkdirSync(join(dir, 'done'));
    client = new ApiClient({ baseUrl: sb.url, token: sb.tokens.all, userAgent: 'formctl-test', timeoutMs: 5_000, maxWaitMs: 1_000, retryBaseMs: 1 });
    const form = await client.request<Record<string, unknown>>({
      method: 'POST',
      path: '/open/forms',
      body: deployedFormBody(sb.workspaceId, { title: 'Nightly', properties: [{ id: 'name', type: 'text', name: 'Name' }] }),
    });
    const f = (form.data as { form?: Record<string, unknown> }).form ?? (form.data as Record<string, unknown>);
    formId = Number(f.id);
    slug = String(f.slug);
    field = 'name';
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Posts an answer at the sandbox's current second and returns its numeric id. */
  async function answer(): Promise<number> {
    const res = await fetch(`${sb.url}/forms/${slug}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ [field]: `answer ${++n}` }),
    });
    expect(res.status).toBe(200);
    const list = await client.request<{ data: { id: number }[] }>({ path: `/open/forms/${formId}/submissions`, query: { page: 1, per_page: 1 } });
    const id = Math.max(...(list.data as { data: { id: number }[] }).data.map((s) => Number(s.id)));
    alive.add(id);
    return id;
  }

  async function remove(id: number): Promise<void> {
    await client.request({ method: 'DELETE', path: `/open/forms/${formId}/submissions/${id}` });
    alive.delete(id);
  }

  /** One run; a kill at `killAt` stops it there. Returns whether it completed. */
  async function run(name: string, killAt?: Step, state = statePath()): Promise<{ ok: boolean; err: string }> {
    const fio = fakeIO();
    const o: SubmissionExportOptions = {
      io: fio.io,
      api: async () => client,
      now: () => Date.now(),
      sleep: async () => undefined,
      form: String(formId),
      wait: true,
      pollInterval: 1_000,
      waitTimeout: 60_000,
      incremental: state,
      output: join(outbox(), name),
      baseUrl: async () => sb.url,
      checkpoint: async (step) => {
        if (step === killAt) throw new Killed(step);
      },
    };
    try {
      await submissionExportRun(o);
    } catch (err) {
      if (!(err instanceof Killed)) throw err;
      return { ok: false, err: fio.err() };
    }
    // The loader: every file in the outbox, once the run has exited.
    for (const f of readdirSync(outbox()).sort()) {
      if (f.endsWith('.part') || f.endsWith('.owner')) continue;
      loaded.push(...csvRowIds(readFileSync(join(outbox(), f), 'utf8'), flavor));
      renameSync(join(outbox(), f), join(dir, 'done', f));
    }
    return { ok: true, err: fio.err() };
  }

  it('delivers each submission exactly once across killed and repeated runs', async () => {
    // Three answers in one second; the first run exports them all.
    for (let i = 0; i < 3; i++) await answer();
    expect((await run('r1.csv')).ok).toBe(true);

    // Two more in that same second (the boundary), one a second later; killed once the list is read.
    for (let i = 0; i < 2; i++) await answer();
    clock += 1000;
    await answer();
    expect((await run('r2.csv', 'listed')).ok).toBe(false);
    expect((await run('r2.csv')).ok).toBe(true);

    // One exported submission and one not yet exported are deleted; killed after the state names the file.
    clock += 1000;
    const a = await answer();
    const b = await answer();
    await remove(a);
    await remove(loaded[0]!);
    expect((await run('r3.csv', 'pending')).ok).toBe(false);
    expect(existsSync(join(outbox(), 'r3.csv'))).toBe(false);
    expect((await run('r3.csv')).ok).toBe(true);
    expect(loaded).toContain(b);
    expect(loaded).not.toContain(a);

    // Killed after the file is complete under its name, before the commit: the rerun under another
    // name removes that file (its rows are in the new one).
    clock += 1000;
    await answer();
    expect((await run('r4.csv', 'written')).ok).toBe(false);
    expect(existsSync(join(outbox(), 'r4.csv'))).toBe(true);
    const rerun = await run('r4b.csv');
    expect(rerun.ok).toBe(true);
    expect(rerun.err).toContain(`note: removed ${join(outbox(), 'r4.csv')}, the file of a run that did not finish`);

    // Killed by a signal while it wrote (kill -9: no clean-up), with the state naming r4c.csv as
    // pending: its `.part` and owner record stay behind, and the rerun under another name removes them.
    clock += 1000;
    await answer();
    expect((await run('r4c.csv', 'pending')).ok).toBe(false);
    const part = join(outbox(), 'r4c.csv.part');
    // A pid that is not running: the highest pids are free on any test machine.
    const dead = 2 ** 22 - 7;
    writeFileSync(`${part}.owner`, JSON.stringify({ pid: dead, host: hostname(), started: new Date().toISOString() }) + '\n');
    writeFileSync(part, 'id,Name,created_at\n1,half');
    const swept = await run('r4d.csv');
    expect(swept.ok).toBe(true);
    expect(swept.err).toContain(`note: removed ${part}, left by a run that did not finish.`);
    expect(existsSync(part) || existsSync(`${part}.owner`)).toBe(false);

    // Killed after the file and after the commit of the same name: a rerun under the same name
    // replaces the pending file (no --clobber needed).
    clock += 1000;
    await answer();
    expect((await run('r5.csv', 'written')).ok).toBe(false);
    expect((await run('r5.csv')).ok).toBe(true);

    // Killed after the commit: the file is delivered as it is; the rerun has nothing new (header only).
    clock += 1000;
    await answer();
    expect((await run('r6.csv', 'committed')).ok).toBe(false);
    const empty = await run('r7.csv');
    expect(empty.ok).toBe(true);
    expect(empty.err).toContain('note: no new rows since the last run');
    expect(readFileSync(join(dir, 'done', 'r7.csv'), 'utf8')).toMatch(/^\uFEFFid,Name,created_at\n$/);

    const made = n;
    expect(loaded.length).toBe(new Set(loaded).size);
    // Every submission made arrived once, except `a`, deleted before any export saw it.
    expect(loaded.length).toBe(made - 1);
    expect([...alive].every((id) => loaded.includes(id))).toBe(true);

    // A first run killed before its commit leaves a state with no run: the rerun is still the first run.
    const fresh = join(dir, 'fresh-state.json');
    expect((await run('f1.csv', 'pending', fresh)).ok).toBe(false);
    const first = await run('f1.csv', undefined, fresh);
    expect(first.ok).toBe(true);
    expect(first.err).toContain('(first run: every row)');

    const state = JSON.parse(readFileSync(statePath(), 'utf8'));
    expect(state).toMatchObject({ version: 1, service: sb.url, form_id: formId, columns: ['name', 'created_at'], pending: null });
  });
});
