import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { writeToStreamWhole } from '../../../src/export/sink.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function sink() {
  const dest = new PassThrough();
  const got: Buffer[] = [];
  dest.on('data', (b: Buffer) => got.push(b));
  return { dest, text: () => Buffer.concat(got).toString('utf8') };
}

describe('writeToStreamWhole (-o - for an export of more than one chunk)', () => {
  it('copies the body to the destination once it arrived whole, and removes its temp file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'formctl-spool-'));
    dirs.push(dir);
    const out = sink();
    const n = await writeToStreamWhole(Readable.from([Buffer.from('id,a\n'), Buffer.from('1,x\n')]), out.dest, { dir: join(dir, 'export') });
    expect(n).toBe(9);
    expect(out.text()).toBe('id,a\n1,x\n');
    expect(readdirSync(join(dir, 'export'))).toEqual([]);
  });

  it('a body that fails after some bytes: nothing reaches the destination, no temp file is left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'formctl-spool-'));
    dirs.push(dir);
    const out = sink();
    async function* body() {
      yield Buffer.from('id,a\n1,x\n');
      throw new Error('chunk 2 refused');
    }
    await expect(writeToStreamWhole(Readable.from(body()), out.dest, { dir })).rejects.toThrow('chunk 2 refused');
    expect(out.text()).toBe('');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a cache directory that cannot be made: the system temp directory is used instead', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'formctl-spool-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'file'), '');
    const out = sink();
    await writeToStreamWhole(Readable.from([Buffer.from('id\n1\n')]), out.dest, { dir: join(dir, 'file', 'export') });
    expect(out.text()).toBe('id\n1\n');
  });
});
