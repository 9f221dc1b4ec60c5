import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomically } from '../../../src/export/sink.js';

// The `.part` and its owner record. The record is written whole, and before the
// `.part`, so every state a kill -9 can leave is taken over by the next export. Each state a kill
// between two steps leaves is made here directly, with the owner a process that is not running.

const CSV = '\ufeffid,Name\n1,Ada\n';
const DEAD = 2 ** 22 - 7; // the highest pids are free on any test machine
const record = (pid: number) => JSON.stringify({ pid, host: hostname(), started: '2026-01-01T00:00:00.000Z' }) + '\n';
const body = () => Readable.from([Buffer.from(CSV)]);

let dir: string;
let out: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'formctl-part-owner-'));
  out = join(dir, 'answers.csv');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function exportsWhole(o: { clobber?: boolean } = {}): Promise<void> {
  await writeFileAtomically(body(), out, o);
  expect(readFileSync(out, 'utf8')).toBe(CSV);
  expect(readdirSync(dir)).toEqual(['answers.csv']);
}

describe('every state a killed export leaves is taken over', () => {
  it('killed while writing its owner record: a temp record is swept', async () => {
    writeFileSync(`${out}.part.owner.${DEAD}.0badc0de.tmp`, '{"pid":');
    await exportsWhole();
  });

  it('killed after linking its record, before removing the temp one', async () => {
    writeFileSync(`${out}.part.owner.${DEAD}.0badc0de.tmp`, record(DEAD));
    writeFileSync(`${out}.part.owner`, record(DEAD));
    await exportsWhole();
  });

  it('killed after its record, before creating the .part', async () => {
    writeFileSync(`${out}.part.owner`, record(DEAD));
    await exportsWhole();
  });

  it('killed while downloading into the .part', async () => {
    writeFileSync(`${out}.part`, 'half a csv');
    writeFileSync(`${out}.part.owner`, record(DEAD));
    await exportsWhole();
  });

  it('killed after publishing the file, before removing its record (the next export with --clobber)', async () => {
    writeFileSync(out, 'an older export');
    writeFileSync(`${out}.part.owner`, record(DEAD));
    await exportsWhole({ clobber: true });
  });

  it('a .part without a record (an older formctl killed between its two steps) is taken over once it is 10 s old, not 10 minutes', async () => {
    writeFileSync(`${out}.part`, 'half a csv');
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(`${out}.part`, minuteAgo, minuteAgo);
    await exportsWhole();
  });
});

describe('what a running export holds is refused', () => {
  it('a record naming a live process', async () => {
    writeFileSync(`${out}.part`, 'being written');
    writeFileSync(`${out}.part.owner`, record(process.ppid));
    await expect(writeFileAtomically(body(), out)).rejects.toThrow(`is running (process ${process.ppid} on this machine`);
    expect(readFileSync(`${out}.part`, 'utf8')).toBe('being written');
    expect(existsSync(out)).toBe(false);
  });

  it('a record naming a live process, before its .part exists', async () => {
    writeFileSync(`${out}.part.owner`, record(process.ppid));
    await expect(writeFileAtomically(body(), out)).rejects.toThrow(`is running (process ${process.ppid} on this machine`);
    expect(readdirSync(dir)).toEqual(['answers.csv.part.owner']);
  });

  it('a .part without a record that changed just now', async () => {
    writeFileSync(`${out}.part`, 'being written');
    await expect(writeFileAtomically(body(), out)).rejects.toThrow('without a readable owner record and was changed in the last 10 seconds');
    expect(readFileSync(`${out}.part`, 'utf8')).toBe('being written');
  });

  it('the owner record is in place before the .part exists, and gone with it', async () => {
    let seen: string[] = [];
    const watched = Readable.from(
      (async function* () {
        seen = readdirSync(dir).sort();
        yield Buffer.from(CSV);
      })(),
    );
    await writeFileAtomically(watched, out);
    expect(seen).toEqual(['answers.csv.part', 'answers.csv.part.owner']);
    expect(readdirSync(dir)).toEqual(['answers.csv']);
  });
});
