// publishNew (src/atomic-file.ts): the one "put a finished temp file under its name, never over an
// existing file" rule, used by form backups and export downloads. A hard link where the file system
// has them; elsewhere a check, then a rename.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const noLinks = { code: undefined as string | undefined };
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    link: async (from: string, to: string) => {
      if (noLinks.code) throw Object.assign(new Error(`link: ${noLinks.code}`), { code: noLinks.code });
      return real.link(from, to);
    },
  };
});
const { publishNew } = await import('../../../src/atomic-file.js');

afterEach(() => {
  noLinks.code = undefined;
});

describe.each([
  ['with hard links', undefined],
  ['without hard links (EPERM)', 'EPERM'],
  ['without hard links (ENOTSUP)', 'ENOTSUP'],
])('publishNew %s', (_name, code) => {
  it('publishes the temp file under a free name and says so', async () => {
    noLinks.code = code;
    const d = mkdtempSync(join(tmpdir(), 'formctl-publish-'));
    writeFileSync(join(d, 'x.tmp'), 'new\n');
    expect(await publishNew(join(d, 'x.tmp'), join(d, 'x.json'))).toBe(true);
    expect(readFileSync(join(d, 'x.json'), 'utf8')).toBe('new\n');
  });

  it('leaves an existing file alone and answers false', async () => {
    noLinks.code = code;
    const d = mkdtempSync(join(tmpdir(), 'formctl-publish-'));
    writeFileSync(join(d, 'x.tmp'), 'new\n');
    writeFileSync(join(d, 'x.json'), 'old\n');
    expect(await publishNew(join(d, 'x.tmp'), join(d, 'x.json'))).toBe(false);
    expect(readFileSync(join(d, 'x.json'), 'utf8')).toBe('old\n');
    expect(readdirSync(d).sort()).toEqual(['x.json', 'x.tmp']);
  });
});

it('publishNew passes on an error that is not about hard links', async () => {
  noLinks.code = 'EACCES';
  const d = mkdtempSync(join(tmpdir(), 'formctl-publish-'));
  writeFileSync(join(d, 'x.tmp'), 'new\n');
  await expect(publishNew(join(d, 'x.tmp'), join(d, 'x.json'))).rejects.toMatchObject({ code: 'EACCES' });
});
