import { afterEach, describe, expect, it } from 'vitest';
import { type ByIdsResult, csvForIds } from '../../../src/export/by-ids.js';
import { WindowBudget } from '../../../src/export/chunked.js';
import { type StubServer, startStubServer } from '../../helpers/http.js';
import { clientFor } from '../submission/util.js';

let stub: StubServer | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

/** A service answering every export with `csv(body)`. */
async function serve(csv: (asked: number[]) => string) {
  stub = await startStubServer(async (req, res) => {
    const asked = (JSON.parse(req.body || '{}') as { submissionIds?: number[] }).submissionIds ?? [];
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.end(csv(asked));
  });
  return clientFor(stub.url);
}

async function run(csv: (asked: number[]) => string, ids: number[]) {
  const client = await serve(csv);
  const result: ByIdsResult = { exported: [], gone: [], requests: 0 };
  const budget = new WindowBudget(
    1000,
    () => 0,
    async () => undefined,
  );
  const out: Buffer[] = [];
  for await (const b of csvForIds({ client, formId: 7, columns: { name: true }, ids, budget, result })) out.push(b);
  return { text: Buffer.concat(out).toString('utf8'), result };
}

const HEAD = '\uFEFFid,Name\n';

describe('csvForIds', () => {
  it('a service that ignores submissionIds sends every row: only the chosen ones are kept, bytes untouched', async () => {
    const all = `${HEAD}5,"E, e"\n4,"D\nd"\n3,C\n2,B\n1,A\n`;
    const r = await run(() => all, [4, 2]);
    expect(r.text).toBe(`${HEAD}4,"D\nd"\n2,B\n`);
    expect(r.result).toMatchObject({ exported: [4, 2], requests: 1 });
  });

  it("the deployed service's Hashids ids are taken as the ids asked for when the row count says so", async () => {
    const coded = (asked: number[]) => HEAD + asked.map((id) => `h${id}x,N${id}\n`).join('');
    const r = await run(coded, [9, 8]);
    expect(r.text).toBe(`${HEAD}h9x,N9\nh8x,N8\n`);
    expect(r.result.exported).toEqual([9, 8]);
    await stub!.close();
    stub = undefined;
    await expect(run(() => `${HEAD}h9x,N9\n`, [9, 8])).rejects.toThrow(
      'The export of 2 chosen submissions of form 7 came back with 1 rows; nothing was saved.',
    );
  });
});
