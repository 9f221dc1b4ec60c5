import { describe, expect, it, vi } from 'vitest';
import { newWorkspaceListCommand } from '../../../src/commands/workspace/list.js';
import { CliError, UsageError } from '../../../src/errors.js';
import type { Factory } from '../../../src/factory.js';
import { checkJq } from '../../../src/io/jq.js';
import { resolveFormat, writeList, writeObject } from '../../../src/io/output.js';
import { fakeIO } from '../../helpers/io.js';

const rows = [
  { id: 1, name: 'Alpha', tags: ['a', 'b'] },
  { id: 22, name: 'Beta', tags: [] },
];

async function* stream() {
  yield* rows;
}

const caught = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as CliError,
  );

describe('--jq', () => {
  it('implies --json even on a terminal, and runs on the whole list; strings print raw (jq -r)', async () => {
    const fio = fakeIO({ tty: true });
    const format = resolveFormat(fio.io, { jq: '.[].name' });
    expect(format).toEqual({ kind: 'json', jq: '.[].name' });
    expect(await writeList(fio.io, format, stream(), [])).toBe(2);
    expect(fio.out()).toBe('Alpha\nBeta\n');
  });

  it('runs after the --json field list, and per object with --ndjson', async () => {
    const picked = fakeIO();
    await writeList(picked.io, resolveFormat(picked.io, { json: ['id'], jq: 'map(keys)' }), rows, []);
    expect(picked.out()).toBe('[\n  [\n    "id"\n  ],\n  [\n    "id"\n  ]\n]\n');
    const nd = fakeIO();
    await writeList(nd.io, resolveFormat(nd.io, { ndjson: true, jq: '.id' }), stream(), []);
    expect(nd.out()).toBe('1\n22\n');
  });

  it('on one object: jq semantics, not a look-alike (select, string interpolation, empty output)', async () => {
    const fio = fakeIO();
    const format = resolveFormat(fio.io, { jq: '.tags | map(select(. != "a")) | "\\(length) left: \\(join(","))"' });
    await writeObject(fio.io, format, rows[0], []);
    expect(fio.out()).toBe('1 left: b\n');
    const none = fakeIO();
    await writeObject(none.io, resolveFormat(none.io, { jq: 'empty' }), rows[0], []);
    expect(none.out()).toBe('');
  });

  it("$ENV and env are formctl's environment, as with jq on the command line (not the WebAssembly build's made-up one)", async () => {
    const fio = fakeIO({ env: { NO_COLOR: '1', FORM_ID: '22' } });
    const format = resolveFormat(fio.io, { jq: '.[] | select(.id == ($ENV.FORM_ID | tonumber)) | "\\(.name) \\(env.FORM_ID) \\($ENV.HOME)"' });
    await writeList(fio.io, format, rows, []);
    expect(fio.out()).toBe('Beta 22 null\n');
    // A definition and a binding of its own still work after the environment's.
    const defs = fakeIO({ env: { X: 'x' } });
    await writeObject(defs.io, resolveFormat(defs.io, { jq: 'def f: env.X; .id as $i | [$i, f] | @csv' }), rows[0], []);
    expect(defs.out()).toBe('1,"x"\n');
  });

  it("a runtime error is exit 2 with jq's own message, after what jq printed before it", async () => {
    const fio = fakeIO();
    const e = await caught(writeList(fio.io, resolveFormat(fio.io, { jq: '.[] | .name, error("stop")' }), rows, []));
    expect(e).toBeInstanceOf(UsageError);
    expect(e!.message).toBe('jq: error (at /dev/stdin:0): stop');
    expect(fio.out()).toBe('Alpha\n');
  });

  it("checkJq refuses an expression that does not compile with jq's message (line 1 is the user's line), and never runs one that does", async () => {
    const e = await caught(checkJq('.[] | foo('));
    expect(e!.exitCode).toBe(2);
    expect(e!.message).toBe('jq: error: syntax error, unexpected end of file at <top-level>, line 1, column 10:\n    .[] | foo(\n             ^');
    expect((await caught(checkJq('nosuch')))!.message).toMatch(/^jq: error: nosuch\/0 is not defined at <top-level>, line 1, column 1:/);
    // Compiled, not evaluated: an endless generator and a read of stdin return at once.
    await expect(checkJq('range(1e15)')).resolves.toBeUndefined();
    await expect(checkJq('input')).resolves.toBeUndefined();
  });

  it('a bad expression stops the command before its run (and any request)', async () => {
    const run = vi.fn(async () => undefined);
    const { buildProgram } = await import('../../../src/program.js');
    const fio = fakeIO();
    const f = { io: fio.io, globals: { debug: false, timeoutMs: 1000, maxWaitMs: 0, noInput: true, noColor: true } } as unknown as Factory;
    const program = await buildProgram(f, ['workspace', 'list']);
    // Swap the real verb for one whose run is a spy, declared the same way.
    const group = program.commands.find((c) => c.name() === 'workspace')!;
    const list = group.commands.find((c) => c.name() === 'list')!;
    const spy = newWorkspaceListCommand(f, run);
    (group.commands as unknown[]).splice(group.commands.indexOf(list), 1, spy);
    Object.assign(spy, { parent: group });
    const e = await caught(program.parseAsync(['workspace', 'list', '--jq', '.['], { from: 'user' }));
    expect(e!.exitCode).toBe(2);
    expect(run).not.toHaveBeenCalled();
    await program.parseAsync(['workspace', 'list', '--jq', '.[0]'], { from: 'user' });
    expect(run).toHaveBeenCalledTimes(1);
  });
});
