import { type FileHandle, access, link, open, rename, unlink } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NetworkError } from '../api/errors.js';
import { fsReason } from '../io/files.js';
import { CliError, ExitCode, InterruptedError, UsageError } from '../errors.js';

/** A response body as the client hands it over. */
export type DownloadBody = Readable;

/** Closes the body's connection at once, unread (it may be large, or held open by the server). */
export function discard(body: DownloadBody): void {
  // undici reports the abort as an 'error': expected here, so it is not an unhandled one.
  body.on('error', () => undefined).destroy();
}

/** The temporary name a download is written under until it is complete. */
export function partName(file: string): string {
  return `${file}.part`;
}

/**
 * Streams `body` into `<file>.part` and renames it to `file` only when every byte arrived, so an
 * interrupted or failed export never leaves a half file under the final name (ARCHITECTURE, data
 * safety). On any failure the .part file is removed too: a partial CSV cannot be resumed, and a
 * stray .part would only confuse the next run.
 *
 * The .part is created exclusively: a second export to the same file while one runs stops instead of
 * writing into the first one's .part. Without `clobber` the final name is taken with link(2), which
 * fails if a file appeared there during the download, so nothing is ever replaced by accident.
 */
export async function writeFileAtomically(
  body: DownloadBody,
  file: string,
  o: { signal?: AbortSignal; onBytes?: (n: number) => void; clobber?: boolean } = {},
): Promise<number> {
  const part = partName(file);
  let fh: FileHandle;
  try {
    fh = await open(part, 'wx', 0o644);
  } catch (err) {
    discard(body);
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new UsageError(
        `${part} exists: another export to ${file} is running, or an earlier one was killed.`,
        `Wait for the other export, or remove ${part} if none is running.`,
      );
    }
    throw downloadError(err, o.signal, file);
  }
  // The stream closes the file when it finishes or fails; pipeline waits for that close.
  const out = fh.createWriteStream();
  try {
    const onBytes = o.onBytes;
    if (onBytes) {
      let total = 0;
      const count = async function* (source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
        for await (const chunk of source) {
          onBytes((total += chunk.length));
          yield chunk;
        }
      };
      await pipeline(body, count, out, { signal: o.signal });
    } else {
      await pipeline(body, out, { signal: o.signal });
    }
    // Closed before it is published: the file under its final name is complete and released.
    await publish(part, file, o.clobber === true);
    return out.bytesWritten;
  } catch (err) {
    discard(body);
    await fh.close().catch(() => undefined);
    await unlink(part).catch(() => undefined);
    throw downloadError(err, o.signal, file);
  }
}

/** Moves the finished .part to its final name; without `clobber`, never over an existing file. */
async function publish(part: string, file: string, clobber: boolean): Promise<void> {
  if (clobber) return rename(part, file);
  try {
    await link(part, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      throw new UsageError(`${file} appeared while the export was downloading; it was left as it is and the download discarded.`, 'Pass --clobber to replace it, or choose another name with -o.');
    }
    // A file system without hard links: check, then rename (a narrower race than none at all).
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
    if (await access(file).then(() => true, () => false)) {
      throw new UsageError(`${file} appeared while the export was downloading; it was left as it is and the download discarded.`, 'Pass --clobber to replace it, or choose another name with -o.');
    }
    return rename(part, file);
  }
  await unlink(part);
}

/**
 * Streams `body` to stdout (`-o -`): no atomicity is possible, but backpressure and errors are the
 * same. Not stream.pipeline: it would end or destroy stdout, which belongs to the process.
 */
export async function writeToStream(body: DownloadBody, dest: Writable, o: { signal?: AbortSignal; onBytes?: (n: number) => void } = {}): Promise<number> {
  let total = 0;
  let failed: Error | undefined;
  let wake: (() => void) | undefined;
  const onError = (err: Error): void => {
    failed ??= err;
    wake?.();
  };
  // The output went away (a closed pipe): like EPIPE, so the export stops as it does on one.
  const onClose = (): void => onError(Object.assign(new Error('The output was closed.'), { code: 'EPIPE' }));
  const onDrain = (): void => wake?.();
  dest.on('error', onError).on('close', onClose).on('drain', onDrain);
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (!failed && (dest.destroyed || dest.writableEnded)) onClose();
      if (failed) throw failed;
      total += chunk.length;
      o.onBytes?.(total);
      if (!dest.write(chunk, (err) => err && onError(err))) {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    }
    if (failed) throw failed;
    return total;
  } catch (err) {
    discard(body);
    throw downloadError(err, o.signal, 'stdout', true);
  } finally {
    dest.off('error', onError).off('close', onClose).off('drain', onDrain);
  }
}

/** Maps a failed download to the documented exit codes: Ctrl-C 130, dropped connection 11, disk trouble 1. */
export function downloadError(err: unknown, signal: AbortSignal | undefined, target: string, partial = false): Error {
  if (err instanceof CliError) return err;
  const e = err as NodeJS.ErrnoException;
  if (signal?.aborted || e?.name === 'AbortError' || e?.code === 'UND_ERR_ABORTED') return new InterruptedError();
  const code = e?.code ?? (e?.cause as NodeJS.ErrnoException | undefined)?.code;
  if (code && /^(UND_ERR|ECONN|EPIPE|ETIMEDOUT|ERR_STREAM_PREMATURE_CLOSE)/.test(code)) {
    const what = partial ? `${target} received an incomplete CSV` : `nothing was written to ${target}`;
    return new NetworkError(`The download was cut off (${code}); ${what}.`, 'Run the export again.', code);
  }
  if (code && /^E[A-Z]+$/.test(code)) {
    // Short words, not Node's text: that names the internal FILE.part (research: newcomers took it for the output).
    return new CliError(`Cannot write ${target}: ${fsReason(e, 'write')}.`, ExitCode.error, 'Check free disk space and that the directory is writable.');
  }
  const what = partial ? `${target} received an incomplete CSV` : `nothing was written to ${target}`;
  return new NetworkError(`The download failed: ${e?.message ?? String(err)}; ${what}.`, 'Run the export again.', code);
}
