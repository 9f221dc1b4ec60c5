// The built binary on both sandbox flavours: a few smoke tests for the suites that run in-process
// (test/unit/submission/flavours.test.ts, test/unit/form/flavours.test.ts,
// test/unit/member/guard-flavours.test.ts), and what only a process can show: a bulk run killed
// (SIGKILL) mid-way and resumed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { startCountingProxy } from '../helpers/counting-proxy.js';
import { spawnTracked as spawn } from '../helpers/processes.js';
import { FLAVORS } from '../helpers/sandbox.js';

interface Listed {
  id: number;
  data: Record<string, unknown>;
}

describe.each(FLAVORS)('the built binary on the %s flavour', (flavor) => {
  const fx = useSandboxFixture({ flavor, seed: 30, allowPrivateWebhooks: true });

  const list = async (): Promise<Listed[]> => {
    const r = await runFormctl(['submission', 'list', String(fx.sb.formId), '--json'], { env: fx.env });
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout) as Listed[];
  };

  /** Posts a public answer to a form, as a visitor would, keyed by field names; returns the lookup of field ids by name. */
  const answerAsVisitor = async (formId: string, answer: (id: (name: string) => string) => Record<string, unknown>) => {
    const props = await runFormctl(['form', 'get', formId, '--json', 'slug,properties'], { env: fx.env });
    const form = JSON.parse(props.stdout) as { slug: string; properties: Array<{ id: string; name: string }> };
    const id = (name: string) => form.properties.find((p) => p.name === name)!.id;
    const answered = await fetch(`${fx.sb.url}/forms/${form.slug}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(answer(id)),
    });
    expect(answered.status).toBe(200);
    return id;
  };

  it('form create and update: the change asked for, the rest kept', async () => {
    const created = await runFormctl(['form', 'create', '-w', String(fx.sb.workspaceId), '--title', 'Smoke', '--field', 'Name', '--set', 'description=Kept'], {
      env: fx.env,
    });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const id = created.stdout.split('\t')[0]!;
    const r = await runFormctl(['form', 'update', id, '--visibility', 'public', '--json', 'id,visibility,description'], { env: fx.env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: Number(id), visibility: 'public', description: 'Kept' });
  });

  it('the only admin cannot leave the workspace without --force (exit 2)', async () => {
    const r = await runFormctl(['workspace', 'leave', String(fx.sb.workspaceId), '--yes'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: Refusing to leave workspace \d+: Ada Admin \(admin@example\.com\) is the only /);
  });

  it('a bulk line naming one option of a multi-select sends it as a list (the deployed service refuses a string with 422)', async () => {
    const created = await runFormctl(
      [
        'form',
        'create',
        '-w',
        String(fx.sb.workspaceId),
        '--title',
        'Tagged',
        '--field',
        'Name',
        '--field',
        'Tags:multi_select=Urgent,Later',
        '--visibility',
        'public',
        '--json',
        'id,slug',
      ],
      { env: fx.env },
    );
    expect(created.stderr).toBe('');
    const form = JSON.parse(created.stdout) as { id: number; slug: string };
    const answered = await fetch(`${fx.sb.url}/forms/${form.slug}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({}),
    });
    expect(answered.status).toBe(200);
    const listed = async () => {
      const r = await runFormctl(['submission', 'list', String(form.id), '--json'], { env: fx.env });
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout) as Listed[];
    };
    const [sub] = await listed();
    const from = join(fx.work, `tags-${flavor}.ndjson`);
    writeFileSync(from, `${JSON.stringify({ id: sub!.id, Name: 'Ada', Tags: 'later' })}\n`);
    const r = await runFormctl(
      ['submission', 'update', String(form.id), '--from', from, '--results', join(fx.work, `tags-${flavor}.results.ndjson`), '--yes'],
      {
        env: fx.env,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const props = await runFormctl(['form', 'get', String(form.id), '--json', 'properties'], { env: fx.env });
    const tags = (JSON.parse(props.stdout) as { properties: Array<{ id: string; name: string }> }).properties.find((p) => p.name === 'Tags')!.id;
    expect((await listed())[0]!.data[tags]).toEqual(['Later']);
  });

  it('blank multi-select items: a list given with one is sent without it, and a stored one does not block an update of another field', async () => {
    const created = await runFormctl(
      ['form', 'create', '-w', String(fx.sb.workspaceId), '--title', 'Blanks', '--field', 'Name', '--field', 'Tags:multi_select=Urgent,Later'],
      { env: fx.env },
    );
    expect(created.code, created.stderr).toBe(0);
    const formId = created.stdout.split('\t')[0]!;
    // A partial submission on the deployed service keeps ["Urgent", ""] as the middleware leaves it, ["Urgent", null];
    // the spec flavour completes it and stores what was sent.
    await runFormctl(['form', 'update', formId, '--visibility', 'public', '--set', 'enable_partial_submissions=true'], { env: fx.env });
    const id = await answerAsVisitor(formId, (id) => ({ [id('Name')]: 'Ada', [id('Tags')]: ['Urgent', ''], is_partial: true }));
    const listed = async () => {
      const r = await runFormctl(['submission', 'list', formId, '--json'], { env: fx.env });
      expect(r.code).toBe(0);
      return (JSON.parse(r.stdout) as Listed[])[0]!;
    };
    const sub = await listed();
    expect(sub.data[id('Tags')]).toEqual(flavor === 'deployed' ? ['Urgent', null] : ['Urgent', '']);

    // A partial submission is completed by the deployed update: like a bulk run, that needs --yes off a terminal.
    const renamed = await runFormctl(['submission', 'update', formId, String(sub.id), '--set', 'Name=Ada Lovelace', '--yes'], { env: fx.env });
    expect(renamed.code, renamed.stderr).toBe(0);
    let after = await listed();
    expect(after.data[id('Name')]).toBe('Ada Lovelace');
    // The deployed service stored the list sent back without its null item; the spec's patch left it alone.
    expect(after.data[id('Tags')]).toEqual(flavor === 'deployed' ? ['Urgent'] : ['Urgent', '']);

    const retagged = await runFormctl(['submission', 'update', formId, String(sub.id), '--set', 'Tags=["Later", " "]'], { env: fx.env });
    expect(retagged.code, retagged.stderr).toBe(0);
    after = await listed();
    expect([after.data[id('Name')], after.data[id('Tags')]]).toEqual(['Ada Lovelace', ['Later']]);
  });

  it('an update that would drop answers to removed fields is refused off a terminal without --yes (exit 2, nothing sent), as a bulk run is', async () => {
    const created = await runFormctl(
      ['form', 'create', '-w', String(fx.sb.workspaceId), '--title', 'Shrinks', '--visibility', 'public', '--field', 'Name', '--field', 'Note'],
      {
        env: fx.env,
      },
    );
    expect(created.code, created.stderr).toBe(0);
    const formId = created.stdout.split('\t')[0]!;
    const id = await answerAsVisitor(formId, (id) => ({ [id('Name')]: 'Ada', [id('Note')]: 'keep me' }));
    const note = id('Note');
    const got = await runFormctl(['form', 'get', formId, '--json', 'properties'], { env: fx.env });
    const { properties } = JSON.parse(got.stdout) as { properties: Array<{ id: string }> };
    const patch = join(fx.work, `shrinks-${flavor}.json`);
    writeFileSync(patch, JSON.stringify({ properties: properties.filter((p) => p.id !== note) }));
    const shrunk = await runFormctl(['form', 'update', formId, '--file', patch], { env: fx.env });
    expect(shrunk.code, shrunk.stderr).toBe(0);
    const listed = async () => {
      const r = await runFormctl(['submission', 'list', formId, '--json'], { env: fx.env });
      expect(r.code).toBe(0);
      return (JSON.parse(r.stdout) as Listed[])[0]!;
    };
    const sub = await listed();
    expect(sub.data[note]).toBe('keep me');

    const refused = await runFormctl(['submission', 'update', formId, String(sub.id), '--set', 'Name=Zoe'], { env: fx.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`holds answers to fields the form no longer has (${note})`);
    expect(refused.stderr).toMatch(/^error: Update submission \d+ of form .* anyway: refusing without confirmation\.\nhint: Pass --yes to confirm\.\n$/m);
    let after = await listed();
    expect([after.data[id('Name')], after.data[note]]).toEqual(['Ada', 'keep me']);

    const confirmed = await runFormctl(['submission', 'update', formId, String(sub.id), '--set', 'Name=Zoe', '--yes'], { env: fx.env });
    expect(confirmed.code, confirmed.stderr).toBe(0);
    after = await listed();
    expect(after.data[id('Name')]).toBe('Zoe');
    // The deployed service stores the answers to the current fields in place of all of them; the spec patches.
    expect(after.data[note]).toBe(flavor === 'deployed' ? undefined : 'keep me');
  });

  it('emptying a required field (--set Name=) is exit 2 before any PUT, not the 422 the service gives', async () => {
    const sub = (await list())[0]!;
    const r = await runFormctl(['--debug', 'submission', 'update', String(fx.sb.formId), String(sub.id), '--set', 'Name=  '], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: Field "Name" \(name\) is required: the service refuses to empty it \(422\); nothing was sent\.\nhint: Give it a value/m);
    expect(r.stderr).not.toMatch(/^\[debug\] > PUT /m);
  });

  it('a --from line that empties a required field fails that line before its PUT; the other lines go (exit 10, as other refused lines)', async () => {
    const [a, b] = await list();
    const from = join(fx.work, 'blank-required.ndjson');
    writeFileSync(from, `${JSON.stringify({ submission_id: a!.id, Name: '' })}\n${JSON.stringify({ submission_id: b!.id, Comments: 'bulk kept' })}\n`);
    const results = join(fx.work, 'blank-required.results.ndjson');
    const r = await runFormctl(['--debug', 'submission', 'update', String(fx.sb.formId), '--from', from, '--results', results, '--yes'], { env: fx.env });
    expect(r.code).toBe(10);
    expect(r.stderr).toContain('error: 1 of 2 lines failed.\n');
    const lines = readFileSync(results, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => l.line === 1)).toMatchObject({
      submission_id: String(a!.id),
      status: 'failed',
      error: 'Field "Name" (name) is required: the service refuses to empty it (422); nothing was sent.',
    });
    expect(lines.filter((l) => l.line === 1)).toHaveLength(1);
    expect(r.stderr.match(/^\[debug\] > PUT .*$/gm)).toEqual([`[debug] > PUT ${fx.sb.url}/open/forms/${fx.sb.formId}/submissions/${b!.id}`]);
  });

  it('export --columns takes a removed field (removed_properties), status and meta.attribution.* as the service does', async () => {
    const created = await runFormctl(
      ['form', 'create', '-w', String(fx.sb.workspaceId), '--title', 'Columns', '--visibility', 'public', '--field', 'Name', '--field', 'Note'],
      { env: fx.env },
    );
    expect(created.code).toBe(0);
    const formId = created.stdout.split('\t')[0]!;
    const id = await answerAsVisitor(formId, (field) => ({ [field('Name')]: 'Ada', [field('Note')]: 'kept in the export' }));
    const props = JSON.parse((await runFormctl(['form', 'get', formId, '--json', 'properties'], { env: fx.env })).stdout) as {
      properties: Array<{ id: string }>;
    };
    const file = join(fx.work, 'columns-form.json');
    writeFileSync(file, JSON.stringify({ properties: props.properties.filter((p) => p.id !== id('Note')) }));
    expect((await runFormctl(['form', 'update', formId, '--file', file, '--yes'], { env: fx.env })).code).toBe(0);
    const removed = await runFormctl(['form', 'get', formId, '--json', 'removed_properties', '--jq', '[.removed_properties[].name]'], { env: fx.env });
    expect(removed.stdout).toBe('[\n  "Note"\n]\n');
    const r = await runFormctl(['submission', 'export', formId, '--columns', 'note,status,meta.attribution.utm_source,Name', '-o', '-'], { env: fx.env });
    expect(r.stderr).toBe(
      `note: form ${formId} takes no partial submissions, so its export has no status column: the service writes one only for forms that do (with or without --columns status).\n`,
    );
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').slice(0, 1)).toEqual(['\uFEFFid,Note,utm_source,Name']);
    expect(r.stdout.split('\n')[1]).toMatch(/^\w+,kept in the export,,Ada$/);
  });

  it('submission get prints the record the list holds for that submission', async () => {
    const sub = (await list())[3]!;
    const r = await runFormctl(['submission', 'get', String(fx.sb.formId), String(sub.id), '--json', 'id,data'], { env: fx.env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: sub.id, data: sub.data });
  });

  it('a blank select (--set Plan=) clears its answer', async () => {
    const created = await runFormctl(
      ['form', 'create', '-w', String(fx.sb.workspaceId), '--title', 'Plans', '--visibility', 'public', '--field', 'Name', '--field', 'Plan:select=Free,Pro'],
      { env: fx.env },
    );
    expect(created.code, created.stderr).toBe(0);
    const formId = created.stdout.split('\t')[0]!;
    const id = await answerAsVisitor(formId, (id) => ({ [id('Name')]: 'Ada', [id('Plan')]: 'Pro' }));
    const listed = async () => (JSON.parse((await runFormctl(['submission', 'list', formId, '--json'], { env: fx.env })).stdout) as Listed[])[0]!;
    const sub = await listed();
    expect(sub.data[id('Plan')]).toBe('Pro');
    const cleared = await runFormctl(['submission', 'update', formId, String(sub.id), '--set', 'Plan='], { env: fx.env });
    expect(cleared.code, cleared.stderr).toBe(0);
    const after = await listed();
    expect([after.data[id('Name')], after.data[id('Plan')] ?? null]).toEqual(['Ada', null]);
  });

  it('a bulk run killed mid-way and resumed sends exactly one PUT per line', async () => {
    // The proxy holds the run's third PUT (never passing it on): the run is killed while it waits for
    // that answer, two lines done and the third on its way, however fast or slow the machine is.
    let third!: () => void;
    const held = new Promise<void>((r) => (third = r));
    let puts = 0;
    const proxy = await startCountingProxy(fx.sb.url, (req) => {
      if (req.method !== 'PUT' || ++puts !== 3) return undefined;
      return () => {
        third();
        return new Promise<never>(() => undefined);
      };
    });
    try {
      const penv = { ...fx.env, FORMCTL_BASE_URL: proxy.url };
      const subs = await list();
      const targets = subs.slice(18, 24);
      const from = join(fx.work, `kill-${flavor}.ndjson`);
      const results = join(fx.work, `kill-${flavor}.results.ndjson`);
      writeFileSync(from, targets.map((s, i) => JSON.stringify({ id: s.id, Comments: `resumed ${i}` })).join('\n') + '\n');
      const args = ['submission', 'update', String(fx.sb.formId), '--from', from, '--results', results, '--concurrency', '1', '--yes'];
      const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, NO_COLOR: '1', ...penv }, stdio: 'ignore' });
      const lines = (status: string) =>
        existsSync(results)
          ? readFileSync(results, 'utf8')
              .split('\n')
              .filter((l) => l.includes(`"status":"${status}"`)).length
          : 0;
      await held;
      // The results file says so too (written before each PUT and after its answer); nothing moves now.
      while (!(lines('ok') >= 2 && lines('sending') >= 3)) await new Promise((r) => setTimeout(r, 5));
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      expect(lines('ok')).toBe(2);
      const r = await runFormctl([...args, '--resume'], { env: penv, timeoutMs: 30_000 });
      expect(r.code).toBe(0);
      // Every line's PUT reached the service once: the held one never did, and the resumed run sent it again.
      const sent = proxy.passed.filter((p) => p.method === 'PUT').map((p) => Number(p.path.replace(/^.*\/submissions\//, '')));
      const heldId = sent[2]!;
      expect(sent.filter((id) => id === heldId)).toHaveLength(2);
      expect(sent.filter((_, i) => i !== 2).sort((p, q) => p - q)).toEqual(targets.map((s) => s.id).sort((p, q) => p - q));
      const after = await list();
      for (const [i, s] of targets.entries()) expect(after.find((o) => o.id === s.id)!.data.comments).toBe(`resumed ${i}`);
    } finally {
      await proxy.close();
    }
  });
});
