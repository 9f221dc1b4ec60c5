import type { Writable } from 'node:stream';
import type { BodySink } from '../api/wire.js';

/** The part of a `FileHandle` the file sink uses (a fake in tests can write short or fail). */
export interface SequentialFile {
  write(buffer: Buffer, offset: number, length: number): Promise<{ bytesWritten: number }>;
}

/**
 * Size of each of the file sink's two buffers. Measured with bench/export.mjs on the 2-core dev box
 * (docs/performance.md, "Export streaming"): 1, 2 and 4 MiB were alike within the run-to-run noise,
 * 8 MiB was slower at 1 GiB (more fresh memory to fault in); 2 MiB keeps peak RSS lowest of the fast ones.
 */
export const BATCH_BYTES = 2 << 20;

/**
 * Copies the body into one of two buffers while the other is written to the file on the thread
 * pool; a batch is written as soon as no write is in flight, so a slow download still reaches the
 * disk promptly. Memory is the two buffers, whatever the size of the export. Nothing is allocated
 * per read: on the shared VMs fresh memory is what costs (wire.ts).
 */
export class FileBatchSink implements BodySink {
  /** Bytes written to the file so far. */
  total = 0;
  private readonly buffers: [Buffer, Buffer];
  private filling = 0;
  private used = 0;
  private inflight?: Promise<void>;
  private error?: Error;
  private stopped = false;

  constructor(
    private readonly file: SequentialFile,
    private readonly onBytes?: (total: number) => void,
    size = BATCH_BYTES,
  ) {
    this.buffers = [Buffer.allocUnsafeSlow(size), Buffer.allocUnsafeSlow(size)];
  }

  write(bytes: Buffer): number {
    if (this.error) throw this.error;
    let taken = this.copyIn(bytes);
    if (!this.inflight) {
      // The batch goes to the file now, and the other buffer takes what did not fit.
      this.flush();
      taken += this.copyIn(bytes.subarray(taken));
    }
    // Anything left over means: this buffer is full and a write is in flight, so ready() asks to wait.
    return taken;
  }

  private copyIn(bytes: Buffer): number {
    const target = this.buffers[this.filling];
    const n = Math.min(bytes.length, target.length - this.used);
    bytes.copy(target, this.used, 0, n);
    this.used += n;
    return n;
  }

  ready(): Promise<void> | undefined {
    if (this.error) return Promise.reject(this.error);
    if (this.used < this.buffers[this.filling].length) return undefined;
    // Full while a write is in flight: its completion starts the next write and frees this buffer.
    return this.inflight!.then(() => {
      if (this.error) throw this.error;
    });
  }

  /** Waits until every byte taken is in the file; rejects with the first write error. */
  async end(): Promise<number> {
    while (this.inflight) await this.inflight;
    if (this.error) throw this.error;
    return this.total;
  }

  /** After a failure: starts no further write and waits for the one in flight (the file can then be closed). */
  async stop(): Promise<void> {
    this.stopped = true;
    while (this.inflight) await this.inflight;
  }

  private flush(): void {
    if (this.used === 0 || this.stopped) return;
    const batch = this.buffers[this.filling].subarray(0, this.used);
    this.filling ^= 1;
    this.used = 0;
    this.inflight = this.writeAll(batch).then(
      () => {
        this.inflight = undefined;
        this.flush();
      },
      (err: Error) => {
        this.inflight = undefined;
        this.error ??= err;
      },
    );
  }

  /** A write may take less than asked (a full disk, a signal): the rest is written again, never dropped. */
  private async writeAll(batch: Buffer): Promise<void> {
    let offset = 0;
    while (offset < batch.length) {
      const { bytesWritten } = await this.file.write(batch, offset, batch.length - offset);
      if (bytesWritten <= 0) throw Object.assign(new Error('The file accepted no bytes.'), { code: 'EIO' });
      offset += bytesWritten;
      this.total += bytesWritten;
      this.onBytes?.(this.total);
    }
  }
}

/** Hands the body to a stream (stdout with `-o -`), copying each piece, and waits for 'drain' when it is full. */
export class StreamSink implements BodySink {
  total = 0;
  private drained?: Promise<void>;
  private endWait?: () => void;
  private error?: Error;
  private last: Promise<void> = Promise.resolve();
  private readonly onError = (err: Error): void => {
    this.error ??= err;
    this.endWait?.();
  };
  private readonly onClose = (): void => {
    this.error ??= closedError();
    this.endWait?.();
  };
  private readonly onDrain = (): void => this.endWait?.();

  constructor(
    private readonly dest: Writable,
    private readonly onBytes?: (total: number) => void,
  ) {
    dest.on('error', this.onError);
    dest.on('close', this.onClose);
    dest.on('drain', this.onDrain);
  }

  write(bytes: Buffer): number {
    if (!this.error && (this.dest.destroyed || this.dest.writableEnded)) this.error = closedError();
    if (this.error) throw this.error;
    this.total += bytes.length;
    this.onBytes?.(this.total);
    this.last = new Promise<void>((resolve) => {
      const ok = this.dest.write(Buffer.from(bytes), (err) => {
        // A failed write ends a wait for 'drain', which would never come.
        if (err) this.onError(err);
        resolve();
      });
      if (!ok) this.drained ??= new Promise<void>((done) => (this.endWait = done)).then(() => {
        this.drained = this.endWait = undefined;
      });
    });
    return bytes.length;
  }

  ready(): Promise<void> | undefined {
    if (this.error) return Promise.reject(this.error);
    return this.drained?.then(() => {
      if (this.error) throw this.error;
    });
  }

  /** Waits until the stream has taken the last piece; the stream itself stays open (stdout belongs to the process). */
  async end(): Promise<number> {
    await this.last;
    if (this.error) throw this.error;
    return this.total;
  }

  detach(): void {
    this.dest.off('error', this.onError);
    this.dest.off('close', this.onClose);
    this.dest.off('drain', this.onDrain);
  }
}

/** The output went away (a closed pipe): like EPIPE, so the export stops as it does on one. */
function closedError(): NodeJS.ErrnoException {
  return Object.assign(new Error('The output was closed.'), { code: 'EPIPE' });
}
