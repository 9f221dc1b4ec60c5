import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS } from '../helpers/sandbox.js';

// The deployed service validates answers under rules keyed by field id, and Laravel reads a "." in a
// rule's key as a path: an answer to a field whose id holds one never reaches what it stores
// (docs/submission-update.md). formctl refuses to set such an answer (it would be dropped without a
// word) or to send an update that would erase one stored there; other updates go through.
describe.each(FLAVORS)('a form with a field whose id holds a "." on the %s flavour (e2e)', (flavor) => {
  const fx = useSandboxFixture({ flavor });
  let form: { id: number; slug: string };
  let id: string;
  beforeAll(async () => {
    const file = join(fx.work, 'form.json');
    const properties = [
      { id: 'name', name: 'Name', type: 'text' },
      { id: 'size.cm', name: 'Size', type: 'text' },
    ];
    writeFileSync(file, JSON.stringify({ title: 'Sizes', visibility: 'public', properties }));
    const c = await runFormctl(['form', 'create', '-f', file, '-w', String(fx.sb.workspaceId), '--json', 'id,slug'], { env: fx.env });
    expect(c.code).toBe(0);
    form = JSON.parse(c.stdout) as { id: number; slug: string };
    const res = await fetch(`${fx.sb.url}/forms/${form.slug}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ name: 'Ada', 'size.cm': '40' }),
    });
    expect(res.status).toBe(200);
    const listed = JSON.parse((await runFormctl(['submission', 'list', String(form.id), '--json'], { env: fx.env })).stdout) as Array<{ id: number }>;
    id = String(listed[0]!.id);
  });

  const stored = async () => {
    const list = JSON.parse((await runFormctl(['submission', 'list', String(form.id), '--json'], { env: fx.env })).stdout) as Array<{
      data: Record<string, unknown>;
    }>;
    return list[0]!.data;
  };

  it('keeps the answer on the spec flavour; the deployed one drops it from a public answer too', async () => {
    expect((await stored())['size.cm']).toBe(flavor === 'deployed' ? undefined : '40');
  });

  it('refuses to set that answer (exit 2, no PUT)', async () => {
    const u = await runFormctl(['--debug', 'submission', 'update', String(form.id), id, '--set', 'Size=42'], { env: fx.env });
    expect(u.code).toBe(2);
    expect(u.stderr).toContain(
      'error: The service cannot store an answer to a field whose id holds a "." or "*" ("size.cm"): its validation reads the id as a path, so the update would drop that answer and erase any answer stored there; nothing was sent.\n',
    );
    expect(u.stderr).not.toMatch(/^\[debug\] > PUT /m);
  });

  it('an update of another field goes through only where no such answer is stored', async () => {
    const u = await runFormctl(['--debug', 'submission', 'update', String(form.id), id, '--set', 'Name=Bob'], { env: fx.env });
    if (flavor === 'deployed') {
      expect(u.code).toBe(0);
      expect((await stored()).name).toBe('Bob');
    } else {
      // The spec service holds "40" there: the same body on the deployed service would erase it.
      expect(u.code).toBe(2);
      expect(u.stderr).not.toMatch(/^\[debug\] > PUT /m);
      expect(await stored()).toMatchObject({ name: 'Ada', 'size.cm': '40' });
    }
  });
});
