import { describe, expect, it } from 'vitest';
import { CliError } from '../../../src/errors.js';
import { colorEnabled, createIOStreams, promptsDisabled } from '../../../src/io/iostreams.js';
import { type Column, escapeControls, humanTime, notice, parseJsonFields, resolveFormat, success, writeList, writeObject } from '../../../src/io/output.js';
import { Capture, fakeIO } from '../../helpers/io.js';

interface Row {
  id: number;
  name: string;
  created_at: string;
  tags: string[];
}
const FIELDS = ['id', 'name', 'created_at', 'tags'] as const;
const NOW = new Date('2026-01-10T12:00:00Z');
const rows: Row[] = [
  { id: 1, name: 'Alpha\tform', created_at: '2026-01-10T11:57:00Z', tags: ['a', 'b'] },
  { id: 22, name: 'Beta', created_at: '2026-01-08T12:00:00Z', tags: [] },
];
const columns: Column<Row>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'Name', value: (r) => r.name },
  { header: 'Created', value: (r) => r.created_at, time: true },
  { header: 'Tags', value: (r) => r.tags },
];

async function* pages(): AsyncGenerator<Row> {
  yield* rows;
}

describe('writeList', () => {
  it('TTY: table with upper-case headers and relative times', async () => {
    const fio = fakeIO({ tty: true });
    await writeList(fio.io, resolveFormat(fio.io, {}), rows, columns, { now: NOW });
    expect(fio.out()).toBe(['ID  NAME        CREATED        TAGS', '1   Alpha form  3 minutes ago  a, b', '22  Beta        2 days ago     -', ''].join('\n'));
  });

  it('piped: TSV without header, ISO times, tabs/newlines in cells flattened, no ANSI', async () => {
    const fio = fakeIO({ tty: false, color: true });
    await writeList(fio.io, resolveFormat(fio.io, {}), pages(), columns, { now: NOW });
    expect(fio.out()).toBe('1\tAlpha form\t2026-01-10T11:57:00Z\t["a","b"]\n22\tBeta\t2026-01-08T12:00:00Z\t[]\n');
  });

  it('--json: all fields; --json a,b: only those, in that order; missing → null', async () => {
    const a = fakeIO({ tty: true });
    await writeList(a.io, resolveFormat(a.io, { json: true }), rows, columns);
    expect(JSON.parse(a.out())).toEqual(rows);
    const b = fakeIO();
    await writeList(b.io, resolveFormat(b.io, { json: ['name', 'id'] }), rows, columns);
    expect(b.out()).toBe('[\n  {"name":"Alpha\\tform","id":1},\n  {"name":"Beta","id":22}\n]\n');
    const c = fakeIO();
    await writeList(c.io, resolveFormat(c.io, { json: true }), [], columns);
    expect(c.out()).toBe('[]\n');
  });

  it('--json with an unknown field: exit 2 listing the available fields', () => {
    const err = (() => {
      try {
        parseJsonFields('id,nmae', FIELDS);
      } catch (e) {
        return e as CliError;
      }
    })();
    expect([err?.exitCode, err?.message, err?.hint]).toEqual([2, 'Unknown JSON field: nmae.', 'Available fields: id, name, created_at, tags']);
  });

  it('--ndjson: one object per line; --json with --ndjson is a usage error', async () => {
    const fio = fakeIO({ tty: true });
    const n = await writeList(fio.io, resolveFormat(fio.io, { ndjson: true }), pages(), columns);
    expect(n).toBe(2);
    expect(
      fio
        .out()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    ).toEqual(rows);
    expect(() => resolveFormat(fio.io, { json: true, ndjson: true })).toThrow('Use either --json or --ndjson, not both.');
  });

  it('empty list on a TTY: nothing on stdout, the hint on stderr', async () => {
    const fio = fakeIO({ tty: true });
    await writeList(fio.io, { kind: 'table' }, [], columns, { empty: 'No forms.' });
    expect([fio.out(), fio.err()]).toEqual(['', 'No forms.\n']);
  });

  it('colour on a TTY only when enabled', async () => {
    const on = fakeIO({ tty: true, color: true });
    await writeList(on.io, { kind: 'table' }, rows.slice(0, 1), [{ header: 'ID', value: (r) => r.id, style: 'cyan' }]);
    expect(on.out()).toBe('\x1b[1mID\x1b[22m\n\x1b[36m1\x1b[39m\n');
    const off = fakeIO({ tty: true });
    await writeList(off.io, { kind: 'table' }, rows.slice(0, 1), [{ header: 'ID', value: (r) => r.id, style: 'cyan' }]);
    expect(off.out()).toBe('ID\n1\n');
  });
});

describe('writeObject and success', () => {
  it('key/value on a TTY, TSV pairs when piped, pretty JSON with --json', async () => {
    const cols: Column<Row>[] = [
      { header: 'ID', value: (r) => r.id },
      { header: 'Name', value: (r) => r.name },
    ];
    const a = fakeIO({ tty: true });
    await writeObject(a.io, { kind: 'table' }, rows[1]!, cols);
    expect(a.out()).toBe('ID    22\nName  Beta\n');
    const b = fakeIO();
    await writeObject(b.io, { kind: 'tsv' }, rows[1]!, cols);
    expect(b.out()).toBe('id\t22\nname\tBeta\n');
    const c = fakeIO();
    await writeObject(c.io, { kind: 'json', fields: ['id'] }, rows[1]!, cols);
    expect(c.out()).toBe('{\n  "id": 22\n}\n');
  });

  it('✓ line on a TTY, nothing when piped', async () => {
    const a = fakeIO({ tty: true });
    await success(a.io, 'Done.');
    const b = fakeIO();
    await success(b.io, 'Done.');
    expect([a.out(), b.out(), b.err()]).toEqual(['✓ Done.\n', '', '']);
  });

  it('humanTime', () => {
    expect(humanTime('2026-01-10T11:59:55Z', NOW)).toBe('just now');
    expect(humanTime('2026-01-10T13:00:00Z', NOW)).toBe('in 1 hour');
    expect(humanTime('2025-01-10T12:00:00Z', NOW)).toBe('1 year ago');
    expect(humanTime(null, NOW)).toBe('-');
    expect(humanTime('soon', NOW)).toBe('soon');
  });
});

describe('colour and prompt rules', () => {
  it('NO_COLOR, --no-color and TERM=dumb switch colour off; FORCE_COLOR switches it on', () => {
    expect(colorEnabled(true, {})).toBe(true);
    expect(colorEnabled(false, {})).toBe(false);
    expect(colorEnabled(true, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(true, { NO_COLOR: '' })).toBe(true);
    expect(colorEnabled(true, {}, true)).toBe(false);
    expect(colorEnabled(true, { TERM: 'dumb' })).toBe(false);
    expect(colorEnabled(false, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled(true, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorEnabled(false, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(false, { FORCE_COLOR: '1' }, true)).toBe(false);
  });

  it('CLICOLOR=0 and CLICOLOR_FORCE=1 as gh reads them: NO_COLOR > CLICOLOR_FORCE/FORCE_COLOR > CLICOLOR=0 > terminal', () => {
    expect(colorEnabled(true, { CLICOLOR: '0' })).toBe(false);
    expect(colorEnabled(true, { CLICOLOR: '1' })).toBe(true);
    expect(colorEnabled(false, { CLICOLOR: '1' })).toBe(false);
    expect(colorEnabled(false, { CLICOLOR_FORCE: '1' })).toBe(true);
    expect(colorEnabled(false, { CLICOLOR_FORCE: '0' })).toBe(false);
    expect(colorEnabled(false, { CLICOLOR_FORCE: '1', CLICOLOR: '0' })).toBe(true);
    expect(colorEnabled(true, { FORCE_COLOR: '1', CLICOLOR: '0' })).toBe(true);
    expect(colorEnabled(false, { CLICOLOR_FORCE: '1', NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(false, { CLICOLOR_FORCE: '1' }, true)).toBe(false);
  });

  it('each stream decides separately', () => {
    const stdin = Object.assign(new Capture(true), {}) as never;
    const io = createIOStreams({ stdin, stdout: new Capture(false), stderr: new Capture(true), env: {} });
    expect([io.colorStdout, io.colorStderr]).toEqual([false, true]);
  });

  it('prompts are off with --no-input, CI (unless false/0) and FORMCTL_NO_INPUT', () => {
    expect(promptsDisabled({})).toBe(false);
    expect(promptsDisabled({}, true)).toBe(true);
    expect(promptsDisabled({ CI: 'true' })).toBe(true);
    expect(promptsDisabled({ CI: 'false' })).toBe(false);
    expect(promptsDisabled({ CI: '0' })).toBe(false);
    expect(promptsDisabled({ FORMCTL_NO_INPUT: '1' })).toBe(true);
  });
});

describe('terminal width', () => {
  const streams = (columns: number | undefined) => {
    const stdout = new Capture(true);
    (stdout as { columns?: number }).columns = columns;
    return { stdin: new Capture(true) as never, stdout, stderr: new Capture(true) };
  };
  it('treats a pty that reports 0 columns as unknown: COLUMNS, else 80', () => {
    expect(createIOStreams({ ...streams(0), env: {} }).columns).toBe(80);
    expect(createIOStreams({ ...streams(0), env: { COLUMNS: '132' } }).columns).toBe(132);
    expect(createIOStreams({ ...streams(100), env: { COLUMNS: '132' } }).columns).toBe(100);
    expect(createIOStreams({ ...streams(undefined), env: { COLUMNS: 'wide' } }).columns).toBe(80);
  });
});

describe('server-controlled text on a terminal', () => {
  // A form title or error message from the service can carry ANSI/OSC sequences (clear screen,
  // retitle the window, hyperlinks) or a carriage return that overwrites the line.
  const evil = 'Evil\x1b[2J\x1b]0;pwned\x07\rX\x9b31m';
  const shown = 'Evil\\x1b[2J\\x1b]0;pwned\\x07\\x0dX\\x9b31m';

  it('escapeControls shows C0 (but tab and, when asked, newline), DEL and C1 as \\xNN', () => {
    expect(escapeControls(evil)).toBe(shown);
    expect(escapeControls('a\tb\nc\x7f')).toBe('a\tb\\x0ac\\x7f');
    expect(escapeControls('a\nb', { newlines: true })).toBe('a\nb');
    expect(escapeControls('Zoë 📣 ok')).toBe('Zoë 📣 ok');
    // A value set inside one line of formctl's words: the tab and newline too.
    expect(escapeControls('a\tb\nc\r\x1b\x9b', { all: true })).toBe('a\\x09b\\x0ac\\x0d\\x1b\\x9b');
  });

  it('tables, key/value views, ✓ lines and notes never pass escape sequences through', async () => {
    const cols: Column<Row>[] = [
      { header: 'ID', value: (r) => r.id },
      { header: 'Name', value: (r) => r.name },
      { header: 'When', value: (r) => r.created_at, time: true },
    ];
    const row: Row = { id: 1, name: evil, created_at: `not a date ${evil}`, tags: [] };
    const t = fakeIO({ tty: true });
    await writeList(t.io, { kind: 'table' }, [row], cols, { now: NOW });
    await writeObject(t.io, { kind: 'table' }, row, cols, { now: NOW });
    await success(t.io, `Created ${evil}`);
    await notice(t.io, `note ${evil}`);
    for (const text of [t.out(), t.err()]) {
      // eslint-disable-next-line no-control-regex
      expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      expect(text).toContain(shown);
    }
    // An object cell is shown as JSON, which leaves DEL and C1 as they are.
    const o = fakeIO({ tty: true });
    await writeObject(o.io, { kind: 'table' }, { id: 1, name: 'x', created_at: '', tags: [] } as Row, [{ header: 'Data', value: () => ({ a: 'b\x9b2J' }) }]);
    expect(o.out()).toBe('Data  {"a":"b\\x9b2J"}\n');
    // JSON output is untouched (JSON.stringify already escapes control characters).
    const j = fakeIO();
    await writeObject(j.io, { kind: 'json' }, row, cols);
    expect(JSON.parse(j.out()).name).toBe(evil);
  });
});

describe('table fitting and relative times', () => {
  it('narrows free text before identifier columns marked keep', async () => {
    const { fitWidths } = await import('../../../src/io/output.js');
    // id 2, slug 30 (keep), title 40, visibility 10 = 82, + 6 for the gaps: 28 too many for 60
    expect(fitWidths([2, 30, 40, 10], 60, [false, true, false, false])).toEqual([2, 30, 12, 10]);
    // Without keep the widest goes first, slug included.
    expect(fitWidths([2, 30, 40, 10], 60)).toEqual([2, 21, 21, 10]);
    // When the other columns are down to 8, identifiers give way too.
    expect(fitWidths([2, 30, 40, 10], 40, [false, true, false, false])).toEqual([2, 16, 8, 8]);
  });

  it('rounds relative times: a 7-day invite sent a minute ago is "in 7 days"', () => {
    const now = new Date('2026-01-10T00:00:00Z');
    expect(humanTime('2026-01-16T23:59:00Z', now)).toBe('in 7 days');
    expect(humanTime('2026-01-09T23:59:00.4Z', now)).toBe('1 minute ago');
    expect(humanTime('2026-01-09T23:58:30Z', now)).toBe('2 minutes ago');
    expect(humanTime('2026-01-09T23:59:00.6Z', now)).toBe('59 seconds ago');
  });
});
