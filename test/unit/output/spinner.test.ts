import { describe, expect, it } from 'vitest';
import { collectWithSpinner, withSpinner } from '../../../src/io/spinner.js';
import { fakeIO } from '../../helpers/io.js';

/** Resolves once `check` holds, polling; fails the test after `ms` (a generous bound, not a timing assertion). */
async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('withSpinner', () => {
  /**
   * Runs `subject` beside a control (a full terminal) on work that ends only once the control's
   * spinner shows: however slow the machine, the subject had all the time a spinner needs.
   */
  async function besideAControl(subject: ReturnType<typeof fakeIO>): Promise<void> {
    const control = fakeIO({ tty: true, spinner: true });
    const shown = until(() => control.err().includes('Loading…'));
    await Promise.all([withSpinner(control.io, 'Loading…', () => shown), withSpinner(subject.io, 'Loading…', () => shown)]);
  }

  it('shows nothing when stdout or stderr is not a terminal, however long the work takes', async () => {
    const piped = fakeIO({ tty: false, spinner: true });
    await besideAControl(piped);
    expect(piped.err()).toBe('');
    expect(await withSpinner(piped.io, 'Loading…', async () => 42)).toBe(42);

    const halfTTY = fakeIO({ tty: true, spinner: true });
    halfTTY.io.stdoutIsTTY = false; // e.g. `formctl form list --json | jq` in a terminal
    await besideAControl(halfTTY);
    expect(halfTTY.err()).toBe('');
  });

  it('shows nothing on a terminal that reports 0 columns (ora would clear lines forever)', async () => {
    const t = fakeIO({ tty: true, spinner: true });
    t.stderr.columns = 0;
    await besideAControl(t);
    expect(t.err()).toBe('');
  });

  it('shows nothing for work that finishes before the delay', async () => {
    const t = fakeIO({ tty: true, spinner: true });
    expect(await withSpinner(t.io, 'Loading…', async () => 'quick')).toBe('quick');
    await new Promise((r) => setTimeout(r, 400));
    expect(t.err()).toBe('');
  });

  it('spins on stderr while slow work runs, then clears it; nothing reaches stdout', async () => {
    const t = fakeIO({ tty: true, spinner: true });
    let finish!: (v: string) => void;
    const running = withSpinner(t.io, 'Loading forms…', () => new Promise<string>((r) => (finish = r)));
    await until(() => t.err().includes('Loading forms…'));
    finish('done');
    expect(await running).toBe('done');
    const after = t.err();
    await new Promise((r) => setTimeout(r, 300));
    expect(t.err()).toBe(after); // stopped: no more frames
    expect(t.out()).toBe('');
  });

  it('stops the spinner and passes the error on when the work fails', async () => {
    const t = fakeIO({ tty: true, spinner: true });
    let fail!: (e: Error) => void;
    const running = withSpinner(t.io, 'Loading…', () => new Promise<never>((_, reject) => (fail = reject)));
    await until(() => t.err().includes('Loading…'));
    fail(new Error('boom'));
    await expect(running).rejects.toThrow('boom');
    const after = t.err();
    await new Promise((r) => setTimeout(r, 300));
    expect(t.err()).toBe(after);
  });

  it('collectWithSpinner drains an async iterable in order', async () => {
    async function* pages() {
      yield 1;
      yield 2;
      yield 3;
    }
    expect(await collectWithSpinner(fakeIO({ tty: true, spinner: true }).io, 'Loading…', pages())).toEqual([1, 2, 3]);
  });
});
