import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempPathFor, writeFileAtomic, writeFileAtomicSync, writeTempFile } from '../../../src/atomic-file.js';

const dir = () => mkdtempSync(join(tmpdir(), 'formctl-atomic-'));

describe('the one atomic file writer', () => {
  it('writes the whole file, 0600, and leaves no temp file behind', async () => {
    const d = dir();
    const file = join(d, 'form.json');
    await writeFileAtomic(file, 'one\n');
    await writeFileAtomic(file, 'two\n');
    expect(readFileSync(file, 'utf8')).toBe('two\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileAtomicSync(join(d, 'budget.json'), '{}');
    expect(statSync(join(d, 'budget.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(d).sort()).toEqual(['budget.json', 'form.json']);
  });

  it('removes its temp file when the rename fails (the target is a directory), sync or not', async () => {
    const d = dir();
    mkdirSync(join(d, 'taken'));
    await expect(writeFileAtomic(join(d, 'taken'), 'x')).rejects.toThrow();
    expect(() => writeFileAtomicSync(join(d, 'taken'), 'x')).toThrow();
    expect(readdirSync(d)).toEqual(['taken']);
  });

  it('names temp files <target>.<pid>.<8 hex>.tmp, beside the target', async () => {
    const d = dir();
    expect(tempPathFor(join(d, 'state.json'))).toMatch(new RegExp(`^${join(d, 'state.json')}\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`));
    const tmp = await writeTempFile(join(d, 'b.json'), 'x');
    expect(readFileSync(tmp, 'utf8')).toBe('x');
    expect(statSync(tmp).mode & 0o777).toBe(0o600);
  });
});
