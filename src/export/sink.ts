import { constants } from 'node:fs';
import { type FileHandle, access, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { createReadStream, unlinkSync, writeSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Readable, type Writable, addAbortSignal } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NetworkError } from '../api/errors.js';
import { fsReason } from '../io/files.js';
import { processAlive } from '../process-alive.js';
import { reclaimer } from './reclaim.js';
import { publishNew, removeStaleTempFiles, tempPathFor, writeTempFile } from '../atomic-file.js';
import { CliError, ExitCode, InterruptedError, UsageError } from '../errors.js';

/** Closes the body's connection at once, unread (it may be large, or held open by the server). */
export function discard(body: Readable): void {
  // undici reports the abort as an 'error': expected here, so it is not an unhandled one.
  body.on('error', () => undefined).destroy();
}

/** The temporary name a download is written under until it is complete. */
export function partName(file: string): string {
  return `${file}.part`;
}

/**
 * Who is writing a `.part`: recorded beside it (`<file>.part.owner`) so a later run can tell a live
 * export from a killed one. The record is the lock: it is written whole into a temp file and then
 * linked to its name (link(2) fails if the name exists), before the `.part` is created, so every
 * state a kill -9 can leave names its owner or holds nothing (docs/security.md, "The .part file and its owner record").
 */
export interface PartOwner {
  pid: number;
  host: string;
  /** When that export started writing (ISO 8601). */
  started: string;
}

export function ownerName(part: string): string {
  return `${part}.owner`;
}

/**
 * A `.part` without an owner record, or a record that cannot be read, comes from an older formctl
 * (which created the `.part` first and wrote the record just after): taken for abandoned once it has
 * not changed for this long.
 */
const UNOWNED_STALE_MS = 10_000;

export type PartState =
  { state: 'absent' } | { state: 'stale'; owner?: PartOwner; ino: number; path: string } | { state: 'live' | 'elsewhere' | 'unknown'; owner?: PartOwner };

async function readOwner(path: string): Promise<PartOwner | undefined> {
  try {
    const o = JSON.parse(await readFile(path, 'utf8')) as Partial<PartOwner>;
    if (typeof o.pid === 'number' && typeof o.host === 'string') return { pid: o.pid, host: o.host, started: String(o.started ?? '') };
  } catch {
    // Absent, or not a record formctl wrote.
  }
  return undefined;
}

/**
 * Whether an export to `file` is under way: its owner record names a process on this machine that is
 * alive (live), one that is gone (stale, after a kill -9 or a crash), or another machine (elsewhere:
 * cannot be checked from here). A stale state names the file to remove (the record, or an ownerless
 * `.part`) and its inode, so only that one is removed.
 */
export async function inspectPart(file: string, now: () => number = Date.now): Promise<PartState> {
  const part = partName(file);
  const record = ownerName(part);
  const rst = await stat(record).catch(() => undefined);
  const owner = rst ? await readOwner(record) : undefined;
  if (owner) {
    if (owner.host !== hostname()) return { state: 'elsewhere', owner };
    return processAlive(owner.pid) ? { state: 'live', owner } : { state: 'stale', owner, ino: rst!.ino, path: record };
  }
  // No readable record: an older formctl's files, judged by their age.
  const pst = await stat(part).catch(() => undefined);
  const st = rst ?? pst;
  if (!st) return { state: 'absent' };
  const changed = Math.max(rst?.mtimeMs ?? 0, pst?.mtimeMs ?? 0);
  return now() - changed > UNOWNED_STALE_MS ? { state: 'stale', ino: st.ino, path: rst ? record : part } : { state: 'unknown' };
}

/**
 * How the command that writes a file names it, for the hints: the flag that names the file, and the
 * flag that replaces an existing one, if the command has one (`submission delete --backup` has none).
 */
export interface TargetFlags {
  file: string;
  clobber?: string;
}

/** `submission export`'s flags, the default. */
const EXPORT_FLAGS: TargetFlags = { file: '-o', clobber: '--clobber' };

/** The hint for a file that already exists. */
function existsHint(file: string, f: TargetFlags): string {
  return f.clobber ? `Pass ${f.clobber} to replace it, or choose another name with ${f.file}.` : `Choose another name with ${f.file}, or remove ${file} first.`;
}

/**
 * The refusal of a target another run took meanwhile (its `.part` held by a running export, or the
 * file itself published while this one downloaded): nothing was written. A caller that chose the
 * name itself (a bulk delete's default backup) moves on to another name instead.
 */
export class TargetTakenError extends UsageError {}

/** The refusal for a `.part` that another export may be writing. */
function partBusy(file: string, s: PartState, f: TargetFlags = EXPORT_FLAGS): TargetTakenError {
  const part = partName(file);
  const o = 'owner' in s ? s.owner : undefined;
  const since = o?.started ? `, started ${o.started}` : '';
  if (s.state === 'live') {
    return new TargetTakenError(
      `${part} exists: another export to ${file} is running (process ${o!.pid} on this machine${since}).`,
      `Wait for it, or choose another name with ${f.file}.`,
    );
  }
  if (s.state === 'elsewhere') {
    return new TargetTakenError(
      `${part} exists: an export to ${file} was started by process ${o!.pid} on ${o!.host}${since}, which cannot be checked from here.`,
      `If that export is not running, remove ${part} and ${ownerName(part)}.`,
    );
  }
  return new TargetTakenError(
    `${part} exists without a readable owner record and was changed in the last 10 seconds: another export to ${file} may be running.`,
    `Wait for it, or remove ${part} and ${ownerName(part)} if none is running.`,
  );
}

/**
 * Checks before any request that an export can be written to `file`: its directory exists, it is not
 * a directory, it does not exist (unless `clobber`), and no running export holds its `.part`.
 */
export async function precheckTarget(file: string, clobber?: boolean, now?: () => number, f: TargetFlags = EXPORT_FLAGS): Promise<void> {
  if (file === '-') return;
  const dir = dirname(file);
  const d = await stat(dir).catch(() => undefined);
  if (!d) throw new UsageError(`Cannot write ${file}: the directory ${dir} does not exist.`, `Create it first, or choose another path with ${f.file}.`);
  if (!d.isDirectory()) throw new UsageError(`Cannot write ${file}: ${dir} is not a directory.`);
  // A directory formctl may not write into (permissions, a read-only mount) is knowable too: refused
  // here, no export request (10 a minute on the deployed service, docs/service.md) is spent on it.
  const denied = await access(dir, constants.W_OK | constants.X_OK).then(
    () => undefined,
    (err: unknown) => err,
  );
  if (denied) throw new UsageError(`Cannot write ${file}: ${fsReason(denied, 'write')}.`, `Choose a directory you can write to with ${f.file}.`);
  const st = await stat(file).catch(() => undefined);
  if (st?.isDirectory()) throw new UsageError(`Cannot write ${file}: it is a directory.`, `Pass a file name with ${f.file}, e.g. ${f.file} answers.csv.`);
  if (st && !clobber) throw new UsageError(`${file} already exists.`, existsHint(file, f));
  const part = await inspectPart(file, now);
  if (part.state !== 'absent' && part.state !== 'stale') throw partBusy(file, part, f);
}

/**
 * Takes `<file>.part` for this process: first its owner record, whole and exclusively (a temp file
 * linked to `<file>.part.owner`), then the `.part` itself. A record whose process is gone (a killed
 * export, at any step) is taken over; one a running export holds is refused. Temp records left by a
 * killed process are swept.
 */
async function claimPart(file: string, f: TargetFlags = EXPORT_FLAGS): Promise<FileHandle> {
  const part = partName(file);
  const record = ownerName(part);
  await removeStaleTempFiles(record);
  const owner: PartOwner = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    const s = await inspectPart(file);
    if (s.state === 'stale') {
      // Only what was judged stale is removed: a run that took it over first made a new one.
      const again = await stat(s.path).catch(() => undefined);
      if (again && again.ino === s.ino) await unlink(s.path).catch(() => undefined);
    } else if (s.state !== 'absent') throw partBusy(file, s, f);
    const tmp = await writeTempFile(record, JSON.stringify(owner) + '\n', 0o644);
    let won: boolean;
    try {
      won = await publishNew(tmp, record);
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
    if (!won) {
      await unlink(tmp).catch(() => undefined);
      if (attempt > 0) throw partBusy(file, await inspectPart(file), f);
      continue;
    }
    try {
      // The record is ours, so the .part is too: one a killed run left is overwritten. Answers are
      // people's data: the file is the user's alone (0600, as the config and backups are), also when
      // a killed run's .part had other bits, and it keeps them when renamed to its final name.
      const fh = await open(part, 'w', 0o600);
      await fh.chmod(0o600).catch(() => undefined);
      return fh;
    } catch (err) {
      await unlink(record).catch(() => undefined);
      throw err;
    }
  }
}

async function releasePart(part: string): Promise<void> {
  await unlink(ownerName(part)).catch(() => undefined);
}

/**
 * Removes what a killed export to `file` left beside it (its `.part` and owner record), taken over
 * first as a new export would take it; true when there was such a thing. One a running export holds,
 * or that cannot be checked from here, is left alone.
 */
export async function sweepPart(file: string): Promise<boolean> {
  if ((await inspectPart(file)).state !== 'stale') return false;
  const part = partName(file);
  try {
    await (await claimPart(file)).close();
  } catch {
    return false;
  }
  await unlink(part).catch(() => undefined);
  await releasePart(part);
  return true;
}

/**
 * Streams `body` into `<file>.part` and renames it to `file` only when every byte arrived, so an
 * interrupted or failed export never leaves a half file under the final name (docs/contributing.md, data
 * safety). On any failure the .part file is removed too: a partial CSV cannot be resumed, and a
 * stray .part would only confuse the next run.
 *
 * The .part is taken with an owner record beside it (process, machine, start), written before it: a
 * second export to the same file while one runs stops instead of writing into the first one's .part,
 * and what a killed export left, at whatever step, is taken over. Without `clobber` the final name is taken with
 * link(2), which fails if a file appeared there during the download, so nothing is ever replaced by
 * accident.
 */
export async function writeFileAtomically(
  body: Readable,
  file: string,
  o: { signal?: AbortSignal; onBytes?: (n: number) => void; clobber?: boolean; flags?: TargetFlags } = {},
): Promise<number> {
  const part = partName(file);
  let fh: FileHandle;
  try {
    fh = await claimPart(file, o.flags);
  } catch (err) {
    discard(body);
    throw downloadError(err, o.signal, file);
  }
  try {
    const bytes = await copyToFile(body, fh, o);
    // Closed before it is published: the file under its final name is complete and released.
    await publish(part, file, o.clobber === true, o.flags);
    await releasePart(part);
    return bytes;
  } catch (err) {
    discard(body);
    await fh.close().catch(() => undefined);
    await unlink(part).catch(() => undefined);
    await releasePart(part);
    throw downloadError(err, o.signal, file);
  }
}

/** Moves the finished .part to its final name; without `clobber`, never over an existing file. */
async function publish(part: string, file: string, clobber: boolean, f: TargetFlags = EXPORT_FLAGS): Promise<void> {
  if (clobber) return rename(part, file);
  if (!(await publishNew(part, file))) {
    throw new TargetTakenError(`${file} appeared while the export was downloading; it was left as it is and the download discarded.`, existsHint(file, f));
  }
}

/** Streams `body` to stdout (`-o -`): no atomicity is possible, but backpressure and errors are the same; stdout stays open. */
export async function writeToStream(body: Readable, dest: Writable, o: { signal?: AbortSignal; onBytes?: (n: number) => void } = {}): Promise<number> {
  // The bytes are counted on their way through, for the status line.
  let total = 0;
  const memory = reclaimer();
  const count = async function* (source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of source) {
      total += chunk.length;
      memory(total);
      o.onBytes?.(total);
      yield chunk;
    }
  };
  try {
    await pipeline(body, count, dest, { signal: o.signal, end: false });
    return total;
  } catch (err) {
    discard(body);
    throw downloadError(err, o.signal, 'stdout', true);
  }
}

/**
 * `-o -` for an export of more than one chunk (docs/submission-update.md, "Exports to stdout"): a
 * chunk that fails after others passed must not leave a script reading stdout with part of the CSV.
 * The CSV is collected in a private temp file (mode 0600, `stdout.csv.<pid>.<hex>.tmp` in `dir`, the
 * cache directory's `export/`, else the system's temp directory) and copied to `dest` only once the
 * whole body arrived; the temp file is removed on every path, and one a killed run left is swept by
 * the next (removeStaleTempFiles). Nothing reaches `dest` when the body fails.
 */
export async function writeToStreamWhole(body: Readable, dest: Writable, o: { signal?: AbortSignal; dir?: string } = {}): Promise<number> {
  let spool: { path: string; fh: FileHandle };
  try {
    spool = await openSpool(o.dir);
  } catch (err) {
    discard(body);
    throw downloadError(err, o.signal, 'a temporary file for stdout');
  }
  removeAtExit(spool.path);
  try {
    try {
      await copyToFile(body, spool.fh, { signal: o.signal });
    } catch (err) {
      discard(body);
      await spool.fh.close().catch(() => undefined);
      throw downloadError(err, o.signal, 'stdout');
    }
    return await writeToStream(createReadStream(spool.path), dest, { signal: o.signal });
  } finally {
    await unlink(spool.path).catch(() => undefined);
    keepAtExit(spool.path);
  }
}

/**
 * Spool files to remove if the process exits before writeToStreamWhole's own cleanup runs: a reader
 * that closes stdout early (`formctl submission export … -o - | head`) ends the process at once from
 * the EPIPE handler (src/main.ts), as does a second Ctrl-C. The whole CSV would stay in the cache
 * directory until the next spooled export swept it.
 */
const spoolsLeft = new Set<string>();
const removeSpools = () => {
  for (const path of spoolsLeft) {
    try {
      unlinkSync(path);
    } catch {
      // Gone already.
    }
  }
};

function removeAtExit(path: string): void {
  if (spoolsLeft.size === 0) process.on('exit', removeSpools);
  spoolsLeft.add(path);
}

function keepAtExit(path: string): void {
  if (spoolsLeft.delete(path) && spoolsLeft.size === 0) process.off('exit', removeSpools);
}

/** A new private temp file in `dir` (made if missing), else in the system's temp directory. */
async function openSpool(dir: string | undefined): Promise<{ path: string; fh: FileHandle }> {
  const open1 = async (d: string) => {
    await mkdir(d, { recursive: true, mode: 0o700 });
    const base = join(d, 'stdout.csv');
    await removeStaleTempFiles(base);
    const path = tempPathFor(base);
    return { path, fh: await open(path, 'wx', 0o600) };
  };
  if (dir !== undefined) {
    try {
      return await open1(dir);
    } catch {
      // A cache directory that cannot be written (a read-only home): the system's temp directory will do.
    }
  }
  return open1(tmpdir());
}

/**
 * Writes `body` into the .part with a synchronous write per chunk, then closes it; returns the byte
 * count. Measured against stream.pipeline into a file WriteStream (docs/performance.md): each chunk is
 * written the moment it arrives and can be freed at once, instead of waiting for a thread-pool write,
 * which made downloads about 1.5 times faster. A write into the page cache takes microseconds, so the
 * event loop (Ctrl-C, the status line) is never held for long.
 */
async function copyToFile(body: Readable, fh: FileHandle, o: { signal?: AbortSignal; onBytes?: (n: number) => void }): Promise<number> {
  if (o.signal) addAbortSignal(o.signal, body);
  let total = 0;
  const memory = reclaimer();
  for await (const chunk of body as AsyncIterable<Buffer>) {
    for (let at = 0; at < chunk.length;) at += writeSync(fh.fd, chunk, at);
    total += chunk.length;
    memory(total);
    o.onBytes?.(total);
  }
  await fh.close();
  return total;
}

/** Maps a failed download to the documented exit codes: Ctrl-C 130, dropped connection 11, disk trouble 1. */
export function downloadError(err: unknown, signal: AbortSignal | undefined, target: string, partial = false): Error {
  if (err instanceof CliError) return err;
  const e = err as NodeJS.ErrnoException;
  if (signal?.aborted || e?.name === 'AbortError' || e?.code === 'UND_ERR_ABORTED') return new InterruptedError();
  const code = e?.code ?? (e?.cause as NodeJS.ErrnoException | undefined)?.code;
  const what = partial ? `${target} received an incomplete CSV` : `nothing was written to ${target}`;
  if (code === 'ERR_ACCESS_DENIED') {
    // Node's permission model: it disables fsync outright, which every safe save (the .part's owner
    // record, the final rename) needs, whatever --allow-fs-write allows.
    return new CliError(
      `Cannot write ${target}: Node's permission model refused it (${e.message.replace(/\.$/, '')}).`,
      ExitCode.error,
      "formctl saves files with fsync, which Node's --permission disables: run it without --permission, or write the CSV to stdout with -o -.",
    );
  }
  if (code && /^(UND_ERR|ECONN|EPIPE|ETIMEDOUT|ERR_STREAM_PREMATURE_CLOSE)/.test(code)) {
    return new NetworkError(`The download was cut off (${code}); ${what}.`, 'Run the export again.', code);
  }
  if (code && /^E[A-Z]+$/.test(code)) {
    // Short words, not Node's text: that names the internal FILE.part, which newcomers took for the output.
    return new CliError(`Cannot write ${target}: ${fsReason(e, 'write')}.`, ExitCode.error, 'Check free disk space and that the directory is writable.');
  }
  return new NetworkError(`The download failed: ${e?.message ?? String(err)}; ${what}.`, 'Run the export again.', code);
}
