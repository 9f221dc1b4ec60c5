// Writing a file whole, a fact about the machine rather than about the service: a temporary file
// beside the target, then rename(2) over it, so a reader (or a crash) never sees half a file. Shared
// by the client (form pull/apply, backups, the sandbox ready file, the rate budget, the completion
// cache) and the sandbox's data file; it imports nothing of either (docs/architecture.md).
import { renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { access, link, open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { processAlive } from './process-alive.js';

/**
 * Temp files are `<target>.<pid>.<8 hex>.tmp`: beside the target (same file system), and the pid says
 * whose. The hex only has to differ between the writes of one process (and from a file a dead
 * process of the same pid left): every temp file is created exclusively (`wx`), so a name that is
 * taken fails rather than being shared, never silently. Math.random is enough for that, and keeps
 * node:crypto (~3 ms of CPU to load) off the path of a command that writes its rate budget
 * (docs/performance.md, "One file for the CLI").
 */
export function tempPathFor(path: string): string {
  const hex = Math.floor(Math.random() * 0x1_0000_0000)
    .toString(16)
    .padStart(8, '0');
  return `${path}.${process.pid}.${hex}.tmp`;
}

/**
 * Writes `content` to a new temp file beside `path` (mode 0600 unless told), flushed to disk, and
 * returns its name; on failure nothing is left behind.
 */
export async function writeTempFile(path: string, content: string, mode = 0o600): Promise<string> {
  const tmp = tempPathFor(path);
  const fh = await open(tmp, 'wx', mode);
  try {
    await fh.writeFile(content, 'utf8');
    await fh.sync();
  } catch (err) {
    await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fh.close();
  return tmp;
}

/**
 * Writes `content` to `path` durably and atomically (mode 0600 unless told): a temp file beside it,
 * fsync, rename over the target, then fsync the directory so that the rename itself survives a crash.
 */
export async function writeFileAtomic(path: string, content: string, o: { mode?: number } = {}): Promise<void> {
  const tmp = await writeTempFile(path, content, o.mode);
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await syncDir(dirname(path));
}

/**
 * The same rename-over for small caches written on a hot path (a request's rate budget, a completion
 * answer), synchronously and without fsync: losing the last write to a crash costs nothing but a
 * cache miss, while an fsync would cost every request or Tab press milliseconds. A reader still never
 * sees half a file.
 */
export function writeFileAtomicSync(path: string, content: string, mode = 0o600): void {
  const tmp = tempPathFor(path);
  try {
    writeFileSync(tmp, content, { mode, flag: 'wx' });
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // Never created, or already renamed.
    }
    throw err;
  }
}

/** link(2) errors that mean "this file system has no hard links", not "something is wrong". */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Moves the finished temp file `tmp` to `path` unless a file is already there: a hard link (which
 * never replaces a file) then unlinking `tmp`; on a file system without hard links, a check, then a
 * rename (a narrower race than none). Returns false, and leaves `tmp` where it is, when `path` exists.
 */
export async function publishNew(tmp: string, path: string): Promise<boolean> {
  try {
    await link(tmp, path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (!code || !NO_HARD_LINKS.has(code)) throw err;
    if (
      await access(path).then(
        () => true,
        () => false,
      )
    )
      return false;
    await rename(tmp, path);
    return true;
  }
  await unlink(tmp);
  return true;
}

async function syncDir(dir: string): Promise<void> {
  let dh;
  try {
    dh = await open(dir, 'r');
    await dh.sync();
  } catch {
    // Some platforms cannot open or fsync a directory; the rename is then as durable as they make it.
  } finally {
    await dh?.close().catch(() => {});
  }
}

/**
 * Removes temp files a killed writer left beside `path`: those whose process is gone (or is this one,
 * which has written nothing yet). A live process's temp file is left alone.
 */
export async function removeStaleTempFiles(path: string): Promise<void> {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return; // a missing directory is reported by the first write
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name.slice(prefix.length));
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid !== process.pid && processAlive(pid)) continue;
    await unlink(join(dir, name)).catch(() => {});
  }
}
