import { PassThrough, Writable } from 'node:stream';
import { type IOStreams, createIOStreams } from '../../src/io/iostreams.js';

/** A writable that keeps everything written to it. */
export class Capture extends Writable {
  chunks: Buffer[] = [];
  isTTY: boolean;
  columns = 120;
  constructor(tty: boolean) {
    super();
    this.isTTY = tty;
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void): void {
    this.chunks.push(Buffer.from(chunk));
    cb();
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
  // The cursor methods of a tty.WriteStream (spinners draw with them), as the escape codes they send.
  cursorTo(x: number, y?: number | (() => void), cb?: () => void): boolean {
    const done = typeof y === 'function' ? y : cb;
    this.write(typeof y === 'number' ? `\x1b[${y + 1};${x + 1}H` : `\x1b[${x + 1}G`, done);
    return true;
  }
  moveCursor(dx: number, dy: number, cb?: () => void): boolean {
    this.write(`${dx < 0 ? `\x1b[${-dx}D` : dx > 0 ? `\x1b[${dx}C` : ''}${dy < 0 ? `\x1b[${-dy}A` : dy > 0 ? `\x1b[${dy}B` : ''}`, cb);
    return true;
  }
  clearLine(_dir: number, cb?: () => void): boolean {
    this.write('\x1b[2K', cb);
    return true;
  }
}

export interface FakeIO {
  io: IOStreams;
  stdout: Capture;
  stderr: Capture;
  stdin: PassThrough;
  out(): string;
  err(): string;
}

/**
 * IOStreams on buffers. `tty` sets all three streams' TTY answer; colour is off unless asked for.
 * stderr has a terminal's cursor methods only with `spinner: true`: the spinner (src/io/spinner.ts),
 * which draws with them, appears once work has taken 150 ms, and how long work takes depends on how
 * busy the machine is; a test of anything else must not see it come and go.
 */
export function fakeIO(o: { tty?: boolean; stdin?: string; color?: boolean; canPrompt?: boolean; env?: NodeJS.ProcessEnv; spinner?: boolean } = {}): FakeIO {
  const tty = o.tty ?? false;
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.isTTY = tty;
  if (o.stdin !== undefined) stdin.end(o.stdin);
  const stdout = new Capture(tty);
  const stderr = new Capture(tty);
  if (!o.spinner) Object.assign(stderr, { cursorTo: undefined, moveCursor: undefined, clearLine: undefined });
  const env: NodeJS.ProcessEnv = o.env ?? (o.color ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' });
  const io = createIOStreams({ stdin, stdout, stderr, env });
  if (o.canPrompt !== undefined) io.canPrompt = o.canPrompt;
  return { io, stdout, stderr, stdin, out: () => stdout.text(), err: () => stderr.text() };
}
