import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CliError } from '../../../src/errors.js';
import { MAX_ID, parseFormRef, parseIdText, parseIdValue, safeId } from '../../../src/io/ids.js';
import { run } from '../../../src/main.js';
import { type StubServer, json, startStubServer } from '../../helpers/http.js';
import { Capture } from '../../helpers/io.js';

const codeOf = (f: () => unknown) => {
  try {
    f();
    return 0;
  } catch (e) {
    return e instanceof CliError ? e.exitCode : -1;
  }
};

describe('id parsing (src/io/ids.ts)', () => {
  it('accepts positive safe integers only', () => {
    expect(safeId('42')).toBe(42);
    expect(safeId(' 7 ')).toBe(7);
    expect(safeId(String(MAX_ID))).toBe(MAX_ID);
    for (const bad of ['0', '-1', '1e23', '4.0', '0x10', '9007199254740992', '9007199254740993', '', 'abc']) expect(safeId(bad)).toBeUndefined();
  });

  it('refuses ids past 2^53 instead of rounding them to another id', () => {
    expect(() => parseIdText('workspace id', '9007199254740993')).toThrow(
      'workspace id must be a whole number from 1 to 9007199254740991, got "9007199254740993".',
    );
    expect(codeOf(() => parseIdText('workspace id', '1e23'))).toBe(2);
    expect(codeOf(() => parseIdText('workspace id', '0'))).toBe(2);
    expect(parseIdText('workspace id', '12')).toBe(12);
  });

  it('a form reference is an id or a slug; numbers the service would read as ids must be exact', () => {
    expect(parseFormRef('42')).toBe('42');
    expect(parseFormRef('007')).toBe('7');
    expect(parseFormRef('contact-us-3f9a1c')).toBe('contact-us-3f9a1c');
    for (const bad of ['1e23', '9007199254740993', '-4', '4.5', '0', '+3', ' 1E5 ', 'a/b', '../x', 'a b', '']) {
      expect(
        codeOf(() => parseFormRef(bad)),
        bad,
      ).toBe(2);
    }
    expect(() => parseFormRef('1e23')).toThrow('<form> "1e23" is not a form id or slug: form ids are whole numbers from 1 to 9007199254740991.');
  });

  it('ids read from JSON documents: numbers must be safe integers', () => {
    expect(parseIdValue('id', 42)).toBe(42);
    expect(parseIdValue('id', '42')).toBe(42);
    expect(codeOf(() => parseIdValue('id', 1e23))).toBe(2);
    expect(codeOf(() => parseIdValue('id', 2 ** 53))).toBe(2);
    expect(codeOf(() => parseIdValue('id', 4.5))).toBe(2);
    expect(codeOf(() => parseIdValue('id', true))).toBe(2);
  });
});

describe('form commands refuse a bad form id before any request (exit 2)', () => {
  const home = mkdtempSync(join(tmpdir(), 'formctl-ids-'));
  let server: StubServer;
  beforeAll(async () => {
    server = await startStubServer((_req, res) => json(res, 404, { message: 'No query results' }));
  });
  afterEach(() => {
    server.requests.length = 0;
  });
  afterAll(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });

  async function formctl(args: string[]) {
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    stdin.end();
    const stdout = new Capture(false);
    const stderr = new Capture(false);
    const env = {
      FORMCTL_CONFIG_DIR: join(home, 'config'),
      FORMCTL_STATE_DIR: join(home, 'state'),
      FORMCTL_CACHE_DIR: join(home, 'cache'),
      FORMCTL_TOKEN: 'tok_x',
      FORMCTL_BASE_URL: server.url,
      NO_COLOR: '1',
    };
    const code = await run(args, env, { stdin, stdout, stderr });
    return { code, out: stdout.text(), err: stderr.text() };
  }

  it.each([
    [['form', 'get', '9007199254740993']],
    [['form', 'get', '1e23']],
    [['form', 'update', '1e23', '--visibility', 'draft']],
    [['form', 'update', '9007199254740993', '--title', 'x']],
    [['form', 'pull', '-5']],
    [['form', 'delete', '4.5', '--yes']],
    [['form', 'fields', '1E5']],
    [['form', 'restore', '9007199254740993', '--yes']],
    [['form', 'backups', '1e23']],
    [['submission', 'list', '1e23']],
    [['webhook', 'list', '9007199254740993']],
  ])('%j', async (args) => {
    const r = await formctl(args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: <form> ".+" is not a form id or slug: form ids are whole numbers from 1 to 9007199254740991\.\n/);
    expect(server.requests).toEqual([]);
  });

  it('form apply: a document whose id is past 2^53 is refused before any request', async () => {
    const file = join(home, 'big.json');
    // 2^53 itself is read exactly; the id check refuses it.
    writeFileSync(file, '{"id": 9007199254740992, "title": "x", "properties": [{"id":"a","type":"text","name":"A"}]}');
    const r = await formctl(['form', 'apply', '-f', file]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`error: "id" in ${file} must be a whole number from 1 to 9007199254740991, a larger number.`);
    // 2^53 + 1 would be read as 2^53: the reader refuses it first (docs/forms.md, "Numbers in JSON files").
    writeFileSync(file, '{"id": 9007199254740993, "title": "x", "properties": [{"id":"a","type":"text","name":"A"}]}');
    const rounded = await formctl(['form', 'apply', '-f', file]);
    expect(rounded.code).toBe(2);
    expect(rounded.err).toContain(`error: ${file}, line 1, column 8: the number 9007199254740993 would be read as 9007199254740992`);
    expect(server.requests).toEqual([]);
  });
});
