import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS } from '../helpers/sandbox.js';

describe.each(FLAVORS)('submission list/update/delete on the %s flavour (e2e)', (flavor) => {
  const fx = useSandboxFixture({ flavor, seed: 150 });

  it('--ndjson streams every submission across pages; piped TSV defaults to 30 rows', async () => {
    const r = await runFormctl(['submission', 'list', String(fx.sb.formSlug), '--ndjson'], { env: fx.env });
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.length).toBe(150);
    expect(rows[0]).toMatchObject({ id: 150, submission_id: flavor === 'spec' ? '150' : expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f-]{27}$/) });
    expect(Object.keys(rows[0])).toEqual(expect.arrayContaining(['id', 'submission_id', 'submitted_at', 'data']));
    const tsv = await runFormctl(['submission', 'list', String(fx.sb.formId)], { env: fx.env });
    expect(tsv.stdout.trim().split('\n').length).toBe(30);
    expect(tsv.stdout.split('\n')[0]!.split('\t').slice(0, 1)).toEqual(['150']);
  });

  it('update by field name, then list --search finds it', async () => {
    const u = await runFormctl(['submission', 'update', String(fx.sb.formId), '7', '--set', 'Name=Ada Lovelace', '--set', 'rating=2'], { env: fx.env });
    expect(u).toMatchObject({ code: 0, stdout: '' });
    // The deployed flavour seeds active integrations, which an update fires again: said on stderr.
    expect(u.stderr).toEqual(flavor === 'spec' ? '' : expect.stringMatching(/^warning: the form has \d+ active integrations?; .* will fire again\.\n$/));
    const r = await runFormctl(['submission', 'list', String(fx.sb.formId), '--search', 'Ada Lovelace', '--json', 'id,data'], { env: fx.env });
    const found = JSON.parse(r.stdout) as Array<{ id: number; data: Record<string, unknown> }>;
    expect(found.map((s) => s.id)).toEqual([7]);
    expect(found[0]!.data).toMatchObject({ name: 'Ada Lovelace', rating: 2 });
  });

  it('update --dry-run prints the exact body and changes nothing; a non-number for rating is exit 2', async () => {
    const dry = await runFormctl(['submission', 'update', String(fx.sb.formId), '8', '--set', 'rating=1', '--set', 'Comments=dry', '--dry-run'], {
      env: fx.env,
    });
    expect(dry.code).toBe(0);
    // The exact body: the current answers with the patch laid over them, and the patch under data.
    const body = JSON.parse(dry.stdout);
    expect(body).toMatchObject({ name: expect.any(String), rating: 1, comments: 'dry', data: { rating: 1, comments: 'dry' } });
    expect(Object.keys(body.data)).toEqual(['rating', 'comments']);
    expect(dry.stderr).toMatch(
      new RegExp(`note: dry run: nothing was sent to submission 8 of form "Customer feedback \\(demo\\)" \\(id ${fx.sb.formId}\\)\\.\n$`),
    );
    const r = await runFormctl(['submission', 'list', String(fx.sb.formId), '--search', 'dry', '--json', 'id'], { env: fx.env });
    expect(JSON.parse(r.stdout)).toEqual([]);
    const bad = await runFormctl(['submission', 'update', String(fx.sb.formId), '8', '--set', 'rating=abc'], { env: fx.env });
    expect(bad).toMatchObject({ code: 2, stderr: 'error: Field "rating" is a rating field and takes a number, got "abc".\n' });
  });

  it('an unknown field is exit 2 with the field list; a missing submission is exit 6', async () => {
    const bad = await runFormctl(['submission', 'update', String(fx.sb.formId), '7', '--set', 'Shoe=44'], { env: fx.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      `error: Unknown field "Shoe" in form ${fx.sb.formSlug}.\nhint: Fields: "Name" (name), "Email" (email), "Rating" (rating), "Comments" (comments)\n`,
    );
    const missing = await runFormctl(['submission', 'update', String(fx.sb.formId), '9999', '--set', 'Name=x'], { env: fx.env });
    expect(missing.code).toBe(6);
  });

  it('delete needs --yes when not on a terminal', async () => {
    const no = await runFormctl(['submission', 'delete', String(fx.sb.formId), '3'], { env: fx.env });
    expect(no.code).toBe(2);
    expect(no.stderr).toContain('hint: Pass --yes to confirm.');
    const yes = await runFormctl(['submission', 'delete', String(fx.sb.formId), '3', '--yes'], { env: fx.env });
    expect(yes.code).toBe(0);
    const again = await runFormctl(['submission', 'delete', String(fx.sb.formId), '3', '--yes'], { env: fx.env });
    expect(again.code).toBe(6);
  });
});
