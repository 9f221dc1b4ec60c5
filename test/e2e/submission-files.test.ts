import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS } from '../helpers/sandbox.js';

interface Listed {
  id: number;
  data: Record<string, unknown>;
}

/** File names of a listed file answer: objects on the deployed flavour, names on the spec's. */
function names(v: unknown): string[] {
  return (Array.isArray(v) ? v : [v]).map((x) => (x !== null && typeof x === 'object' ? String((x as { file_name: string }).file_name) : String(x)));
}

// The deployed service keeps a file answer only when it names a file the service stored itself; any
// other URL or name is stored as nothing (docs/submission-update.md). So an update may clear a file
// answer or keep some of its files, and anything else is refused before sending, on both flavours.
describe.each(FLAVORS)('file answers in submission updates on the %s flavour (e2e)', (flavor) => {
  const fx = useSandboxFixture({ flavor });
  let form: { id: number; slug: string };
  beforeAll(async () => {
    const file = join(fx.work, 'form.json');
    writeFileSync(
      file,
      JSON.stringify({
        title: 'Applications',
        visibility: 'public',
        properties: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'cv', name: 'CV', type: 'files' },
          { id: 'sig', name: 'Signature', type: 'signature' },
        ],
      }),
    );
    const c = await runFormctl(['form', 'create', '-f', file, '-w', String(fx.sb.workspaceId), '--json', 'id,slug'], { env: fx.env });
    expect(c.code).toBe(0);
    form = JSON.parse(c.stdout) as { id: number; slug: string };
    const res = await fetch(`${fx.sb.url}/forms/${form.slug}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ name: 'Ada', cv: ['cv.pdf', 'photo.png'], sig: 'sign-1.png' }),
    });
    expect(res.status).toBe(200);
  });

  const first = async (): Promise<Listed> =>
    (JSON.parse((await runFormctl(['submission', 'list', String(form.id), '--json'], { env: fx.env })).stdout) as Listed[])[0]!;

  it('refuses a file the submission does not hold (exit 2, no PUT), and the files stay', async () => {
    const sub = await first();
    for (const set of ['CV=https://files.example.com/new.pdf', 'Signature=other.png']) {
      const r = await runFormctl(['--debug', 'submission', 'update', String(form.id), String(sub.id), '--set', set], { env: fx.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^error: Field "(CV" \(cv\) is a files|Signature" \(sig\) is a signature) field, and ".+" is not one of the files this submission holds: /m,
      );
      expect(r.stderr).not.toMatch(/^\[debug\] > PUT /m);
    }
    // In a bulk run that line fails and the others go on.
    const from = join(fx.work, 'lines.ndjson');
    writeFileSync(from, `${JSON.stringify({ id: sub.id, CV: ['https://files.example.com/new.pdf'] })}\n${JSON.stringify({ id: sub.id, Name: 'Ada L.' })}\n`);
    const b = await runFormctl(['submission', 'update', String(form.id), '--from', from, '--yes'], { env: fx.env });
    expect(b.code).toBe(10);
    const lines = b.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string; error?: string });
    expect(lines.map((l) => l.status)).toEqual(['failed', 'ok']);
    expect(lines[0]!.error).toMatch(/is not one of the files this submission holds/);
    const after = await first();
    expect(after.data.name).toBe('Ada L.');
    expect(names(after.data.cv)).toEqual(['cv.pdf', 'photo.png']);
    expect(names(after.data.sig)).toEqual(['sign-1.png']);
  });

  it("a signed file URL never shows unredacted: the refusal of another submission's record, the bulk delete preview", async () => {
    const res = await fetch(`${fx.sb.url}/forms/${form.slug}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ name: 'Other', cv: ['other.pdf'], sig: 'sign-2.png' }),
    });
    expect(res.status).toBe(200);
    const listed = JSON.parse((await runFormctl(['submission', 'list', String(form.id), '--json'], { env: fx.env })).stdout) as Listed[];
    const other = listed.find((l) => l.data.name === 'Other')!;
    const target = listed.find((l) => l.data.name !== 'Other')!;
    // The deployed list hands out signed URLs: what they carry must not reach the output.
    const signatures = JSON.stringify(other.data).match(/signature=[^&"]+/g) ?? [];
    if (flavor === 'deployed') expect(signatures.length).toBeGreaterThan(0);
    const rec = join(fx.work, 'other.json');
    // As saved, the record names the other submission: refused (exit 2), its answers would replace the target's.
    writeFileSync(rec, JSON.stringify(other));
    const named = await runFormctl(['submission', 'update', String(form.id), String(target.id), '--file', rec], { env: fx.env });
    expect(named.code).toBe(2);
    expect(named.stderr).toBe(
      `error: ${rec} is a record of submission ${other.id} (its "id"), not of submission ${target.id}: nothing was sent.\nhint: Pass ${other.id} as the submission id, or remove "id" from the file to apply its answers to ${target.id}.\n`,
    );
    // Without the ids that name it, its files are looked at, and refused.
    writeFileSync(rec, JSON.stringify({ ...other, id: undefined, submission_id: undefined }));
    const u = await runFormctl(['submission', 'update', String(form.id), String(target.id), '--file', rec], { env: fx.env });
    expect(u.code).toBe(2);
    expect(u.stderr).toMatch(
      /^error: Field "(CV" \(cv\) is a files|Signature" \(sig\) is a signature) field, and ".+" is not one of the files this submission holds: /m,
    );
    const d = await runFormctl(['submission', 'delete', String(form.id), '--where', 'name=Other', '--dry-run'], { env: fx.env });
    expect(d.code, d.stderr).toBe(0);
    expect(d.stderr).toContain('other.pdf');
    for (const out of [u.stderr, d.stderr]) {
      for (const sig of signatures) expect(out).not.toContain(sig);
      if (flavor === 'deployed') expect(out).toContain('signature=[REDACTED]');
    }
    // Its run log goes to the work directory, not the repo.
    const gone = await runFormctl(['submission', 'delete', String(form.id), '--where', 'name=Other', '--yes', '--no-backup'], { env: fx.env, cwd: fx.work });
    expect(gone.code, gone.stderr).toBe(0);
  });

  it('another field changes and the files stay; a saved record may keep some of them', async () => {
    const sub = await first();
    const u = await runFormctl(['submission', 'update', String(form.id), String(sub.id), '--set', 'Name=Grace'], { env: fx.env });
    expect(u.code).toBe(0);
    let after = await first();
    expect([after.data.name, names(after.data.cv), names(after.data.sig)]).toEqual(['Grace', ['cv.pdf', 'photo.png'], ['sign-1.png']]);
    const rec = join(fx.work, 'record.json');
    writeFileSync(rec, JSON.stringify({ ...after, data: { ...after.data, cv: (after.data.cv as unknown[]).slice(1) } }));
    const k = await runFormctl(['submission', 'update', String(form.id), String(sub.id), '--file', rec], { env: fx.env });
    expect(k.code).toBe(0);
    after = await first();
    expect([names(after.data.cv), names(after.data.sig)]).toEqual([['photo.png'], ['sign-1.png']]);
  });
});
