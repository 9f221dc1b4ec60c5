// `form backups --json` names its fields in snake_case, as every other command does (`saved_at`, once `savedAt`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKUP_FIELDS, formBackupsRun } from '../../../src/commands/form/backups.js';
import { writeBackup } from '../../../src/forms/backups.js';
import { parseJsonFields } from '../../../src/io/output.js';
import { fakeIO } from '../../helpers/io.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'formctl-backups-json-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('form backups --json', () => {
  it('prints saved_at (snake_case) and takes it as a field; savedAt is neither printed nor taken', async () => {
    const path = await writeBackup(dir, { id: 7, title: 'Contact', updated_at: '2026-11-01T10:00:00Z' }, new Date('2026-11-27T12:30:00.000Z'), 20);
    const run = async (json: true | string[]) => {
      const io = fakeIO();
      await formBackupsRun({
        io: io.io,
        api: () => Promise.reject(new Error('no request')),
        now: () => new Date(),
        backupDir: async () => dir,
        form: '7',
        json,
      });
      return JSON.parse(io.out()) as unknown;
    };
    expect(await run(true)).toEqual([
      {
        file: '2026-11-27T12-30-00.000Z.json',
        path,
        saved_at: '2026-11-27T12:30:00.000Z',
        size: expect.any(Number),
        title: 'Contact',
        updated_at: '2026-11-01T10:00:00Z',
      },
    ]);
    expect(await run(parseJsonFields('saved_at,title', BACKUP_FIELDS))).toEqual([{ saved_at: '2026-11-27T12:30:00.000Z', title: 'Contact' }]);
    expect(() => parseJsonFields('savedAt', BACKUP_FIELDS)).toThrow('Unknown JSON field: savedAt.');
  });
});
