import { Writable } from 'node:stream';

/** The part of a `FileHandle` the writer uses (a fake in tests can write short). */
export interface VectorFile {
  writev(buffers: Buffer[]): Promise<{ bytesWritten: number }>;
}

/**
 * How much the writer may hold while a write is on the thread pool. Measured on the 2-core dev box
 * (docs/performance.md, "Export streaming"): with 1 MiB the socket is paused on every write and
 * reading and writing take turns (curl's pattern, which then costs Node's start-up on top); with
 * 8 MiB the socket keeps being read while the previous batch is written, and a 256 MiB export
 * went from 330–470 ms to 256–300 ms. Memory stays bounded by this figure.
 */
export const BATCH_BYTES = 8 << 20;

/**
 * A Writable that gathers the chunks arriving while one write is in flight and hands them to the
 * file as a single writev: one thread-pool round trip per batch instead of one per socket read,
 * and the event loop free to read the socket meanwhile. Counts the bytes that reached the file.
 */
export class BatchWriter extends Writable {
  /** Bytes written to the file so far. */
  total = 0;

  constructor(
    private readonly file: VectorFile,
    private readonly onBytes?: (total: number) => void,
    highWaterMark = BATCH_BYTES,
  ) {
    super({ highWaterMark });
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.writeAll([chunk]).then(() => cb(), cb);
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, cb: (err?: Error | null) => void): void {
    this.writeAll(chunks.map((c) => c.chunk)).then(() => cb(), cb);
  }

  /** writev may write less than asked (a full disk, a signal): the rest is written again, never dropped. */
  private async writeAll(buffers: Buffer[]): Promise<void> {
    let rest = buffers;
    while (rest.length > 0) {
      const { bytesWritten } = await this.file.writev(rest);
      if (bytesWritten <= 0) throw Object.assign(new Error('The file accepted no bytes.'), { code: 'EIO' });
      this.total += bytesWritten;
      this.onBytes?.(this.total);
      rest = dropBytes(rest, bytesWritten);
    }
  }
}

/** The buffers left after the first `n` bytes of `buffers` (views, no copy). */
export function dropBytes(buffers: Buffer[], n: number): Buffer[] {
  let i = 0;
  let left = n;
  while (i < buffers.length && left >= buffers[i]!.length) left -= buffers[i++]!.length;
  if (i === buffers.length) return [];
  return left > 0 ? [buffers[i]!.subarray(left), ...buffers.slice(i + 1)] : buffers.slice(i);
}
