import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { FLAVORS } from '../helpers/sandbox.js';

// The deployed list writes the submission's own `status` (and created_at, id, ip_address) over the
// answers of fields with those ids (docs/submission-update.md): an update that sent back what the list
// shows would overwrite the real answer, so such a form is refused on both flavours, nothing sent.
describe.each(FLAVORS)('a form with a field called "status" on the %s flavour (e2e)', (flavor) => {
  const fx = useSandboxFixture({ flavor });

  it('refuses the update (exit 2, no PUT) and the answer stays', async () => {
    const file = join(fx.work, 'form.json');
    writeFileSync(
      file,
      JSON.stringify({
        title: 'Tiers',
        visibility: 'public',
        properties: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'status', name: 'Tier', type: 'text' },
        ],
      }),
    );
    const c = await runFormctl(['form', 'create', '-f', file, '-w', String(fx.sb.workspaceId), '--json', 'id,slug'], { env: fx.env });
    expect(c.code).toBe(0);
    const form = JSON.parse(c.stdout) as { id: number; slug: string };
    const res = await fetch(`${fx.sb.url}/forms/${form.slug}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ name: 'Ada', status: 'Gold' }),
    });
    expect(res.status).toBe(200);
    const listed = JSON.parse((await runFormctl(['submission', 'list', String(form.id), '--json'], { env: fx.env })).stdout) as Array<{ id: number }>;
    const id = String(listed[0]!.id);

    const u = await runFormctl(['--debug', 'submission', 'update', String(form.id), id, '--set', 'Name=Bob'], { env: fx.env });
    expect(u.code).toBe(2);
    expect(u.stderr).toContain(
      `error: Form "Tiers" (id ${form.id}) has a field whose id the service's submission list uses for its own values (status), so its current answers cannot be read back and sending them would overwrite them; nothing was sent.\n`,
    );
    expect(u.stderr).not.toMatch(/^\[debug\] > PUT /m);

    const from = join(fx.work, 'fix.ndjson');
    writeFileSync(from, `${JSON.stringify({ id: Number(id), Name: 'Bob' })}\n`);
    const b = await runFormctl(['--debug', 'submission', 'update', String(form.id), '--from', from, '--yes'], { env: fx.env });
    expect(b.code).toBe(2);
    expect(b.stderr).not.toMatch(/^\[debug\] > PUT /m);

    // The stored answers, as the export writes them (the deployed list shows "completed" under status).
    const e = await runFormctl(['submission', 'export', String(form.id), '-o', '-'], { env: fx.env });
    expect(e.code).toBe(0);
    const [header, row] = e.stdout
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\n');
    expect(header).toMatch(/^"?id"?,"?Name"?,"?Tier"?,/);
    expect(
      row!
        .split(',')
        .slice(1, 3)
        .map((v) => v.replace(/^"|"$/g, '')),
    ).toEqual(['Ada', 'Gold']);
  });
});
