import { beforeAll, describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS } from '../helpers/sandbox.js';

const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

// The sandbox's clock is set back while answers are posted, so the list holds submissions of past
// days; the binary runs on the real clock.
describe.each(FLAVORS)('form stats from the built binary against the %s sandbox', (flavor) => {
  let clock = Date.now();
  const fx = useSandboxFixture({ flavor, now: () => clock, env: (sb) => ({ FORMCTL_WORKSPACE: String(sb.workspaceId) }) });
  let formId: number;
  const today = Date.now();

  async function answer(slug: string, body: Record<string, unknown>): Promise<void> {
    const res = await fetch(`${fx.sb.url}/forms/${slug}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
  }

  beforeAll(async () => {
    const env = fx.env;
    const created = await runFormctl(['form', 'create', '--title', 'Stats', '--visibility', 'public', '--field', 'Name', '--field', 'Note'], { env });
    expect(created.code).toBe(0);
    formId = Number(created.stdout.split('\t')[0]);
    const form = JSON.parse((await runFormctl(['form', 'get', String(formId), '--json', 'slug,properties,share_url'], { env })).stdout);
    const [name, note] = form.properties.map((p: { id: string }) => p.id);
    // 120 answers 40 days ago: more than a page (100), all before any range below.
    clock = today - 40 * DAY;
    for (let i = 0; i < 120; i++) await answer(form.slug, { [name]: `old ${i}` });
    clock = today - 10 * DAY;
    await answer(form.slug, { [name]: 'a', [note]: 'x' });
    await answer(form.slug, { [name]: 'b' });
    clock = today - 2 * DAY;
    await answer(form.slug, { [name]: 'c', [note]: 'y' });
    clock = today;
    await answer(form.slug, { [name]: 'd' });
    // The deployed server keeps an unfinished answer as a partial submission.
    if (flavor === 'deployed') await answer(form.slug, { is_partial: true, [note]: 'half' });
    for (let i = 0; i < 4; i++) expect((await fetch(form.share_url)).status).toBe(200);
  });

  it('--json: days of the last 30, complete vs partial, conversion, fill rate; the reading stops at the range', async () => {
    const r = await runFormctl(['form', 'stats', String(formId), '--json'], { env: fx.env });
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.days).toHaveLength(30);
    expect(s.days[0].date).toBe(day(today - 29 * DAY));
    expect(s.days.at(-1).date).toBe(day(today));
    const counts = Object.fromEntries(
      s.days.filter((d: { submissions: number }) => d.submissions > 0).map((d: { date: string; submissions: number }) => [d.date, d.submissions]),
    );
    const partial = flavor === 'deployed' ? 1 : 0;
    expect(counts).toEqual({ [day(today - 10 * DAY)]: 2, [day(today - 2 * DAY)]: 1, [day(today)]: 1 + partial });
    expect(s.submissions).toEqual({ total: 4 + partial, complete: 4, partial });
    expect(s.views).toEqual({ views_count: 4, submissions_count: 124 + partial, conversion: Math.round(((124 + partial) / 4) * 10_000) / 10_000 });
    expect(s.fields.map((f: { filled: number }) => f.filled)).toEqual([4, 2 + partial]);
    expect(s.fields[0]).toMatchObject({ name: 'Name', rate: Math.round((4 / (4 + partial)) * 10_000) / 10_000 });
    // The newest 100 hold the range's start: one page of the list, not two.
    expect(s.requests).toBe(2);
    expect(r.stderr).toBe('note: 2 requests (the form, and 1 page of its submission list).\n');
  });

  it('--since/--until change the range; the whole list costs its pages; piped output gives the numbers', async () => {
    const r = await runFormctl(['form', 'stats', String(formId), '--since', '3d', '--until', day(today - DAY)], { env: fx.env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('day\t'))).toEqual([
      `day\t${day(today - 3 * DAY)}\t0`,
      `day\t${day(today - 2 * DAY)}\t1`,
      `day\t${day(today - DAY)}\t0`,
    ]);
    expect(lines).toContain('submissions\t1\t1\t0');
    const all = await runFormctl(['form', 'stats', String(formId), '--since', '2000-01-01', '--json', 'submissions,requests'], { env: fx.env });
    expect(JSON.parse(all.stdout)).toEqual({
      submissions: { total: 124 + (flavor === 'deployed' ? 1 : 0), complete: 124, partial: flavor === 'deployed' ? 1 : 0 },
      requests: 3,
    });
  });

  it('a bad --since is refused before any request (exit 2)', async () => {
    const r = await runFormctl(['form', 'stats', String(formId), '--since', 'last week'], { env: fx.env });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: --since: "last week" is not a date, a time or a duration.\nhint: Use an ISO date or time in UTC unless it names a zone (2026-11-01, 2026-11-01T09:30:00Z) or a duration back from now (30m, 24h, 7d, 2w).\n',
    });
  });
});
