// One formctl process at a time changes a given form from this machine (docs/forms.md, "Concurrent
// updates"): the service has no conditional update, so two processes that both read, merge and PUT
// could each overwrite the other's change. The lock is a proper-lockfile lock directory under the
// state directory, one per service host and form id; a lock left by a killed process goes stale
// and is taken over.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ConflictError } from '../errors.js';
import { cannotWrite } from '../io/files.js';
import { segment } from './backups.js';

/** Releases a form lock (idempotent). */
export type Release = () => Promise<void>;

/** Takes the lock of one form; resolves once it is held. */
export type FormLocker = (formId: number) => Promise<Release>;

/** A lock not refreshed for this long belongs to a process that died; it is taken over. */
const STALE_MS = 10_000;

/** How long to wait for another process's update of the same form (a PUT takes well under a second). */
const WAIT = { retries: 240, factor: 1.2, minTimeout: 25, maxTimeout: 250 };

/** The lock file path of a form: `<dir>/<host>/form-<id>` (the lock itself is that path plus `.lock`). */
export function formLockPath(dir: string, baseUrl: string, formId: number): string {
  let host: string;
  try {
    host = new URL(baseUrl).host;
  } catch {
    host = baseUrl;
  }
  return join(dir, segment(host), `form-${formId}`);
}

/**
 * A locker for forms of the service at `baseUrl`, keeping its locks in `dir`. `onWait` is called once
 * when another process holds the lock, before waiting for it.
 */
export function formLocker(dir: string, baseUrl: string, onWait?: (formId: number) => Promise<void> | void): FormLocker {
  return async (formId) => {
    const file = formLockPath(dir, baseUrl, formId);
    try {
      await mkdir(join(file, '..'), { recursive: true, mode: 0o700 });
    } catch (err) {
      throw cannotWrite(`${file}.lock`, err, 'formctl keeps a lock there while it changes the form; check the state directory (FORMCTL_STATE_DIR).');
    }
    const lockfile = (await import('proper-lockfile')).default;
    // A compromised lock (this process stalled past STALE_MS and another took over) must not crash
    // the process from a timer: the update has its own checks (the re-read, the check after the PUT).
    const options = { realpath: false, stale: STALE_MS, onCompromised: () => undefined };
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(file, { ...options, retries: 0 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw cannotWrite(`${file}.lock`, err);
      await onWait?.(formId);
      try {
        release = await lockfile.lock(file, { ...options, retries: WAIT });
      } catch (again) {
        if ((again as NodeJS.ErrnoException).code !== 'ELOCKED') throw again;
        throw new ConflictError(
          `Another formctl process on this machine is still changing form ${formId}; nothing was sent.`,
          `Try again when it has finished (a lock left by a killed process is taken over after ${STALE_MS / 1000} s: ${file}.lock).`,
        );
      }
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await release().catch(() => undefined);
    };
  };
}
