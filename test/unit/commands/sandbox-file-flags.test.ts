// `formctl sandbox` file flags never take the place of a file of the user's: --data, --ready-file and
// --ca-file naming one file, a --ready-file holding something else (replaced, then removed on exit) and a
// --ca-file holding something else (the CA written over it) are refused before the sandbox starts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type SandboxRunOptions, sandboxRun } from '../../../src/commands/sandbox/index.js';
import { UsageError } from '../../../src/errors.js';
import { fakeIO } from '../../helpers/io.js';
import { fakeSandboxHandle } from '../../helpers/sandbox.js';

const dir = mkdtempSync(join(tmpdir(), 'formctl-sandbox-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = (name: string) => join(dir, name);

/** Runs the command with a fake sandbox and an already-aborted signal: it starts, writes its files, and stops at once. */
async function run(flags: Partial<SandboxRunOptions>): Promise<{ error?: unknown; started: boolean }> {
  let started = false;
  const handle = fakeSandboxHandle();
  const controller = new AbortController();
  controller.abort();
  try {
    await sandboxRun({
      flavor: 'spec',
      host: '127.0.0.1',
      port: 0,
      json: true,
      io: fakeIO().io,
      config: () => Promise.reject(new Error('not used')),
      signal: controller.signal,
      start: () => ((started = true), Promise.resolve(handle)),
      ...flags,
    } as unknown as SandboxRunOptions);
    return { started };
  } catch (error) {
    return { error, started };
  }
}

function expectRefused(r: { error?: unknown; started: boolean }, message: RegExp) {
  expect(r.error).toBeInstanceOf(UsageError);
  expect((r.error as UsageError).message).toMatch(message);
  expect(r.started).toBe(false);
}

describe('sandbox file flags', () => {
  it('one file named by two of --data, --ready-file and --ca-file is refused, the file left alone', async () => {
    writeFileSync(path('state.json'), '{"saved":true}\n');
    expectRefused(await run({ data: path('state.json'), readyFile: path('state.json') }), /^--data and --ready-file name the same file/);
    expectRefused(await run({ data: path('state.json'), tls: true, caFile: path('state.json') }), /^--data and --ca-file name the same file/);
    expectRefused(await run({ readyFile: path('x.pem'), tls: true, caFile: join(dir, '.', 'x.pem') }), /^--ready-file and --ca-file name the same file/);
    expect(readFileSync(path('state.json'), 'utf8')).toBe('{"saved":true}\n');
  });

  it('a --ready-file that is not one the sandbox wrote is refused and kept; a stale ready file or an empty one is used', async () => {
    writeFileSync(path('x.txt'), 'KEEP\n');
    expectRefused(await run({ readyFile: path('x.txt') }), /^--ready-file .*x\.txt already exists and is not a ready file/);
    expect(readFileSync(path('x.txt'), 'utf8')).toBe('KEEP\n');
    writeFileSync(path('other.json'), '{"url":"http://example.com"}\n');
    expectRefused(await run({ readyFile: path('other.json') }), /is not a ready file/);
    expect(readFileSync(path('other.json'), 'utf8')).toBe('{"url":"http://example.com"}\n');

    for (const content of ['{"url":"http://127.0.0.1:5","pid":42,"tokens":{}}\n', '']) {
      writeFileSync(path('ready.json'), content);
      const r = await run({ readyFile: path('ready.json') });
      expect(r.error).toBeUndefined();
      expect(r.started).toBe(true);
    }
  });

  it('a --ca-file that is not a PEM certificate is refused and kept; an earlier certificate is replaced', async () => {
    writeFileSync(path('important.txt'), 'notes\n');
    expectRefused(await run({ tls: true, caFile: path('important.txt') }), /^--ca-file .*important\.txt already exists and is not a PEM certificate/);
    expect(readFileSync(path('important.txt'), 'utf8')).toBe('notes\n');
    writeFileSync(path('ca.pem'), '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const r = await run({ tls: true, caFile: path('ca.pem') });
    expect(r.error).toBeUndefined();
    expect(r.started).toBe(true);
  });
});
