import { describe, expect, it } from 'vitest';
import { CLEAR_LINE, createStatusLine } from '../../../src/io/status-line.js';
import { fakeIO } from '../../helpers/io.js';

describe('createStatusLine', () => {
  it('on a terminal redraws in place, at most once per interval, and clears itself when done', () => {
    const fio = fakeIO({ tty: true });
    let t = 0;
    const line = createStatusLine(fio.io, () => t, { minIntervalMs: 200 });
    line.update('1 MB');
    t = 100;
    line.update('2 MB'); // too soon: skipped
    t = 300;
    line.update('3 MB');
    line.done();
    expect(fio.err()).toBe(`${CLEAR_LINE}1 MB${CLEAR_LINE}3 MB${CLEAR_LINE}`);
  });

  it("in a log with inLog: 'each' prints each change once, on its own line, and has nothing to clear", () => {
    const fio = fakeIO({ tty: false });
    const line = createStatusLine(fio.io, () => 0, { minIntervalMs: 200, inLog: 'each' });
    line.update('page 1');
    line.update('page 1');
    line.update('page 2');
    line.done();
    expect(fio.err()).toBe('page 1\npage 2\n');
  });

  it('in a log by default prints nothing while it changes, then its last text once when done', () => {
    const fio = fakeIO({ tty: false });
    let t = 0;
    const line = createStatusLine(fio.io, () => t);
    for (let i = 1; i <= 50; i++) {
      t += 1000;
      line.update(`processing ${i * 2}%`);
    }
    expect(fio.err()).toBe('');
    line.done();
    line.done();
    expect(fio.err()).toBe('processing 100%\n');
    // Used again after done: its new last text, once more.
    line.update('completed');
    line.done();
    expect(fio.err()).toBe('processing 100%\ncompleted\n');
    const idle = fakeIO({ tty: false });
    createStatusLine(idle.io, () => 0).done();
    expect(idle.err()).toBe('');
  });

  it('after done on a terminal, the same text is drawn again (the line was cleared)', () => {
    const fio = fakeIO({ tty: true });
    const line = createStatusLine(fio.io, () => 0, { minIntervalMs: 0 });
    line.update('x');
    line.done();
    line.update('x');
    expect(fio.err()).toBe(`${CLEAR_LINE}x${CLEAR_LINE}${CLEAR_LINE}x`);
  });

  it('quiet shows nothing, and a line never drawn is not cleared', () => {
    const quiet = fakeIO({ tty: true });
    const q = createStatusLine(quiet.io, () => 0, { minIntervalMs: 200, quiet: true });
    q.update('x');
    q.done();
    expect(quiet.err()).toBe('');
    const idle = fakeIO({ tty: true });
    createStatusLine(idle.io, () => 0).done();
    expect(idle.err()).toBe('');
  });
});
