import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupsKeep, listBackups, listBackupsIn, writeBackup } from '../../../src/forms/backups.js';
import { UsageError } from '../../../src/errors.js';
import { tempDir } from './fixtures.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('backups', () => {
  it('backups in the same millisecond all survive, and the newest is listed first (so restore picks it)', async () => {
    const at = new Date('2025-03-04T05:06:07.890Z');
    const written: string[] = [];
    // Twelve at once, as concurrent processes would: none may overwrite another.
    const all = await Promise.all(Array.from({ length: 12 }, (_, i) => writeBackup(tmp.dir, { id: 42, title: `v${i}` }, at)));
    written.push(...all);
    expect(new Set(written).size).toBe(12);
    expect(readdirSync(tmp.dir).filter((n) => n.endsWith('.json'))).toHaveLength(12);
    expect(readdirSync(tmp.dir).filter((n) => n.startsWith('.'))).toEqual([]);

    const later = await writeBackup(tmp.dir, { id: 42, title: 'last' }, at);
    const list = await listBackups(tmp.dir);
    expect(list[0]!.path).toBe(later);
    expect(list[0]!.file).toBe('2025-03-04T05-06-07.890Z-12.json');
    expect(list.map((b) => b.file).slice(1, 4)).toEqual([
      '2025-03-04T05-06-07.890Z-11.json',
      '2025-03-04T05-06-07.890Z-10.json',
      '2025-03-04T05-06-07.890Z-9.json',
    ]);
    expect(list[list.length - 1]!.file).toBe('2025-03-04T05-06-07.890Z.json');
    expect(JSON.parse(readFileSync(list[0]!.path, 'utf8')).title).toBe('last');
    // A backup from a later millisecond is newer than every suffixed one.
    const next = await writeBackup(tmp.dir, { id: 42, title: 'next' }, new Date('2025-03-04T05:06:07.891Z'));
    expect((await listBackups(tmp.dir))[0]!.path).toBe(next);
    expect(join(tmp.dir, '2025-03-04T05-06-07.891Z.json')).toBe(next);
  });

  it('keeps the newest N backups of a form (20 by default, FORMCTL_BACKUPS_KEEP): the oldest go once a new one is written', async () => {
    const at = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i));
    for (let i = 0; i < 22; i++) await writeBackup(tmp.dir, { id: 42, title: `v${i}` }, at(i));
    const all = await listBackups(tmp.dir);
    expect(all).toHaveLength(20);
    expect(all.at(-1)!.title).toBe('v2');
    expect(all[0]!.title).toBe('v21');
    await writeBackup(tmp.dir, { id: 42, title: 'v22' }, at(22), 3);
    expect((await listBackups(tmp.dir)).map((b) => b.title)).toEqual(['v22', 'v21', 'v20']);
    expect(backupsKeep({})).toBe(20);
    expect(backupsKeep({ FORMCTL_BACKUPS_KEEP: '5' })).toBe(5);
    for (const bad of ['0', '-1', 'many', '2.5']) expect(() => backupsKeep({ FORMCTL_BACKUPS_KEEP: bad })).toThrow(UsageError);
  });

  it('lists the current and the old unkeyed backups of a form together, newest first', async () => {
    await writeBackup(join(tmp.dir, 'old'), { id: 42, title: 'old' }, new Date(Date.UTC(2024, 0, 1)));
    await writeBackup(join(tmp.dir, 'new'), { id: 42, title: 'new' }, new Date(Date.UTC(2025, 0, 1)));
    expect((await listBackupsIn([join(tmp.dir, 'new'), join(tmp.dir, 'old')])).map((b) => b.title)).toEqual(['new', 'old']);
    expect((await listBackupsIn([join(tmp.dir, 'new'), undefined])).map((b) => b.title)).toEqual(['new']);
  });
});
