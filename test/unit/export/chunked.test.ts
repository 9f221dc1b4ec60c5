import { describe, expect, it } from 'vitest';
import { CsvJoiner, ExportBudget } from '../../../src/export/chunked.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (parts: Uint8Array[]) => Buffer.concat(parts.map((p) => Buffer.from(p))).toString('utf8');

/** Feeds each chunk to the joiner in pieces of `size` bytes. */
function join(chunks: string[], size: number): string {
  const j = new CsvJoiner();
  const out: Uint8Array[] = [];
  for (const c of chunks) {
    j.next();
    const b = enc(c);
    for (let i = 0; i < b.length; i += size) out.push(j.take(b.subarray(i, i + size)));
  }
  return dec(out);
}

describe('CsvJoiner', () => {
  const a = '\ufeff"id","Name"\n"1","Ada"\n';
  const b = '\ufeff"id","Name"\n"2","Bob"\n';
  const c = '"id","Na\nme"\n"3","Cy"\n';
  it('keeps one BOM and one header, whatever the piece size, and a quoted line break inside a header', () => {
    for (const size of [1, 2, 3, 5, 1000]) {
      expect(join([a, b, c], size)).toBe('\ufeff"id","Name"\n"1","Ada"\n"2","Bob"\n"3","Cy"\n');
    }
  });
  it('a chunk that is only a header adds nothing', () => {
    expect(join([a, '\ufeff"id","Name"\n'], 4)).toBe(a);
  });
});

describe('ExportBudget (fixed 60 s window)', () => {
  it('lets the limit through at once, then waits for the next window; the headers keep the count true', async () => {
    let t = 0;
    const waits: number[] = [];
    const budget = new ExportBudget(10, () => t, async (ms) => {
      waits.push(ms);
      t += ms;
    }, 500);
    for (let i = 0; i < 10; i++) {
      await budget.take();
      t += 100;
    }
    expect(waits).toEqual([]);
    await budget.take();
    expect(waits).toEqual([60_500 - 1000]);
    // Another client used 8 of this window: only 2 more go before the next wait.
    budget.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '1' });
    await budget.take();
    await budget.take();
    expect(waits.length).toBe(2);
  });
});
