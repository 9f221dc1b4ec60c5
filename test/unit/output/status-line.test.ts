import { describe, expect, it } from 'vitest';
import { CLEAR_LINE, createStatusLine } from '../../../src/io/status-line.js';
import { fakeIO } from '../../helpers/io.js';

describe('createStatusLine', () => {
  it('on a terminal redraws in place, at most once per interval, and clears itself when done', () => {
    const fio = fakeIO({ tty: true });
    let t = 0;
    const line = createStatusLine(fio.io, () => t, 200);
    line.update('1 MB');
    t = 100;
    line.update('2 MB'); // too soon: skipped
    t = 300;
    line.update('3 MB');
    line.done();
    expect(fio.err()).toBe(`${CLEAR_LINE}1 MB${CLEAR_LINE}3 MB${CLEAR_LINE}`);
  });

  it('in a log prints each change once, on its own line, and has nothing to clear', () => {
    const fio = fakeIO({ tty: false });
    const line = createStatusLine(fio.io, () => 0, 200);
    line.update('page 1');
    line.update('page 1');
    line.update('page 2');
    line.done();
    expect(fio.err()).toBe('page 1\npage 2\n');
  });

  it('quiet shows nothing, and a line never drawn is not cleared', () => {
    const quiet = fakeIO({ tty: true });
    const q = createStatusLine(quiet.io, () => 0, 200, true);
    q.update('x');
    q.done();
    expect(quiet.err()).toBe('');
    const idle = fakeIO({ tty: true });
    createStatusLine(idle.io, () => 0).done();
    expect(idle.err()).toBe('');
  });
});
