import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS } from '../helpers/sandbox.js';

interface Listed {
  id: number;
  submission_id: string;
  data: Record<string, unknown>;
}

// A bulk line with both ids uses the numeric `id` (docs/submission-update.md, "Finding the
// submission"); when its `submission_id` names another submission, the line contradicts itself and
// updating either one could put answers on the wrong record.
describe.each(FLAVORS)('a bulk line whose id and submission_id disagree on the %s flavour (e2e)', (flavor) => {
  const fx = useSandboxFixture({ flavor, seed: 10 });

  it('fails that line, sends nothing for it, and runs the others', async () => {
    const list = async () => JSON.parse((await runFormctl(['submission', 'list', String(fx.sb.formId), '--json'], { env: fx.env })).stdout) as Listed[];
    const subs = await list();
    const [a, b, c] = [subs[1]!, subs[2]!, subs[3]!];
    const from = join(fx.work, 'lines.ndjson');
    writeFileSync(
      from,
      [
        JSON.stringify({ id: a.id, submission_id: b.submission_id, Comments: 'which one?' }),
        JSON.stringify({ id: c.id, submission_id: c.submission_id, Comments: 'agreed' }),
      ].join('\n') + '\n',
    );
    const r = await runFormctl(['--debug', 'submission', 'update', String(fx.sb.formId), '--from', from, '--yes'], { env: fx.env });
    expect(r.code).toBe(10);
    const results = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(results[0]).toMatchObject({
      line: 1,
      status: 'failed',
      error: `"id" ${a.id} and "submission_id" ${b.submission_id} name different submissions; nothing was sent for this line`,
    });
    expect(results[1]).toMatchObject({ line: 2, status: 'ok' });
    const puts = r.stderr.split('\n').filter((l) => l.startsWith('[debug] > PUT'));
    expect(puts.map((l) => l.replace(/^.*\/submissions\//, ''))).toEqual([String(c.id)]);
    const after = await list();
    expect(after.find((s) => s.id === a.id)!.data.comments).toBe(a.data.comments);
    expect(after.find((s) => s.id === b.id)!.data.comments).toBe(b.data.comments);
    expect(after.find((s) => s.id === c.id)!.data.comments).toBe('agreed');
  });
});
