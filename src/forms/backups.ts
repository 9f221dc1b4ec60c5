import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { publishNew, writeTempFile } from '../atomic-file.js';
import { UsageError } from '../errors.js';
import { cannotRead, parseJsonObject } from '../io/files.js';
import { documentText, isObject } from './document.js';

/** One saved copy of a form, as listed by `form backups`. */
export interface BackupEntry {
  file: string;
  path: string;
  savedAt: string;
  size: number;
  title?: string;
  updated_at?: string;
}

/** Profile names (and hosts) become one path segment; anything odd is replaced so a name cannot escape the directory. */
export function segment(s: string): string {
  const clean = s.replace(/[^A-Za-z0-9._-]/g, '_');
  return clean === '' || clean === '.' || clean === '..' ? '_' : clean;
}

/**
 * The directory of one service's backups under a profile: its host (readable) and a short hash of
 * its origin (two services on one host, or a host name that the segment rewrote, stay apart), e.g.
 * `api.opnform.com-1b2c3d4e`. Never all digits, so it cannot be taken for an old form directory.
 */
export function serviceKey(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${segment(url.host)}-${createHash('sha256').update(url.origin).digest('hex').slice(0, 8)}`;
}

/** `<state>/backups/<profile>/<service>/<form-id>`: a form id is only unique within one service. */
export function backupDir(stateDir: string, profile: string, formId: number | string, baseUrl: string): string {
  return join(stateDir, 'backups', segment(profile), serviceKey(baseUrl), segment(String(formId)));
}

/**
 * `<state>/backups/<profile>/<form-id>`: where backups went before they were keyed by service. They
 * were written for the profile's own service, so they are read (never written, never pruned) only
 * when the command talks to that service (docs/forms.md, "Backups").
 */
export function legacyBackupDir(stateDir: string, profile: string, formId: number | string): string {
  return join(stateDir, 'backups', segment(profile), segment(String(formId)));
}

/** File names sort in time order and carry no colons (not allowed on every file system). */
function stamp(d: Date): string {
  return d.toISOString().replace(/:/g, '-');
}

/** How many backups of one form are kept when FORMCTL_BACKUPS_KEEP is not set. */
export const DEFAULT_BACKUPS_KEEP = 20;

/** The number of backups kept per form: FORMCTL_BACKUPS_KEEP (a whole number ≥ 1), else 20. */
export function backupsKeep(env: NodeJS.ProcessEnv): number {
  const raw = env.FORMCTL_BACKUPS_KEEP?.trim();
  if (raw === undefined || raw === '') return DEFAULT_BACKUPS_KEEP;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw new UsageError(
      `FORMCTL_BACKUPS_KEEP must be a whole number of at least 1 (it is "${raw}").`,
      `Unset it to keep the last ${DEFAULT_BACKUPS_KEEP} backups of each form.`,
    );
  }
  return Number(raw);
}

/** A backup just taken: its path, and whether this call wrote it (false: the newest backup already held the form). */
export interface SavedBackup {
  path: string;
  fresh: boolean;
}

/**
 * Saves the form as fetched (a backup may hold the form password, hence 0600 in a 0700 directory),
 * and prunes the oldest beyond the newest `keep` (FORMCTL_BACKUPS_KEEP, default 20).
 */
export async function writeBackup(dir: string, form: Record<string, unknown>, now: Date, keep = backupsKeep(process.env)): Promise<string> {
  const saved = await saveBackup(dir, form, now);
  await pruneBackups(dir, keep, saved.path);
  return saved.path;
}

/**
 * Saves the form as fetched, without pruning: the caller prunes once the change it guards was sent
 * (`pruneBackups`), or drops it when the service refused the change (`discardBackup`), so a refused
 * update never pushes a real version out. When the newest backup already holds the same document
 * (the same writable attributes: counts and timestamps aside), it is the backup and nothing is
 * written, so retrying a refused change does not fill the directory with copies of one version.
 * Two backups in the same millisecond get `-1`, `-2`, … suffixes; the name is taken with link(2),
 * which fails if it exists, so two processes can never overwrite each other's backup.
 */
export async function saveBackup(dir: string, form: Record<string, unknown>, now: Date): Promise<SavedBackup> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const newest = (await readdir(dir)).filter((n) => isBackupName(n)).sort(newestFirst)[0];
  if (newest !== undefined) {
    const path = join(dir, newest);
    const held = await readFile(path, 'utf8').then(
      (t) => JSON.parse(t) as unknown,
      () => undefined,
    );
    if (isObject(held) && documentText(held) === documentText(form)) return { path, fresh: false };
  }
  const base = stamp(now);
  const tmp = await writeTempFile(join(dir, `${base}.json`), JSON.stringify(form, null, 2) + '\n');
  try {
    for (let i = 0; ; i++) {
      const path = join(dir, i === 0 ? `${base}.json` : `${base}-${i}.json`);
      if (await publishNew(tmp, path)) return { path, fresh: true };
    }
  } finally {
    await rm(tmp, { force: true });
  }
}

/** Removes a backup this run wrote for a change that was never applied (a file already gone is no error). */
export async function discardBackup(b: SavedBackup): Promise<void> {
  if (b.fresh) await rm(b.path, { force: true });
}

/** Removes the oldest backups beyond the newest `keep` (never `just`, the one just written); a file already gone is no error. */
export async function pruneBackups(dir: string, keep = backupsKeep(process.env), just?: string): Promise<void> {
  const names = (await readdir(dir)).filter((n) => isBackupName(n)).sort(newestFirst);
  for (const n of names.slice(keep)) if (join(dir, n) !== just) await rm(join(dir, n), { force: true });
}

/** A backup's file name (`<stamp>.json`, `<stamp>-N.json`); temporary files start with a dot. */
function isBackupName(n: string): boolean {
  return n.endsWith('.json') && !n.startsWith('.');
}

/** Backups of one form, newest first. */
export async function listBackups(dir: string): Promise<BackupEntry[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const files = names.filter((n) => isBackupName(n)).sort(newestFirst);
  const out: BackupEntry[] = [];
  for (const file of files) {
    const path = join(dir, file);
    const st = await stat(path);
    const entry: BackupEntry = { file, path, savedAt: savedAtOf(file, st.mtime), size: st.size };
    try {
      const doc = JSON.parse(await readFile(path, 'utf8')) as unknown;
      if (isObject(doc)) {
        if (typeof doc.title === 'string') entry.title = doc.title;
        if (typeof doc.updated_at === 'string') entry.updated_at = doc.updated_at;
      }
    } catch {
      // An unreadable backup is still listed; restore reports the problem if it is chosen.
    }
    out.push(entry);
  }
  return out;
}

/** Backups of one form from several directories (the current one, then an old unkeyed one), newest first. */
export async function listBackupsIn(dirs: readonly (string | undefined)[]): Promise<BackupEntry[]> {
  const all: BackupEntry[] = [];
  for (const d of dirs) if (d !== undefined) all.push(...(await listBackups(d)));
  return all.sort((a, b) => newestFirst(a.file, b.file));
}

/** `<stamp>.json` < `<stamp>-1.json` < … < `<stamp>-10.json` in time; compared as (stamp, number). */
function orderKey(file: string): [string, number] {
  const m = /^(.*?Z)(?:-(\d+))?\.json$/.exec(file);
  return m ? [m[1]!, m[2] ? Number(m[2]) : 0] : [file.replace(/\.json$/, ''), 0];
}

function newestFirst(a: string, b: string): number {
  const [sa, na] = orderKey(a);
  const [sb, nb] = orderKey(b);
  if (sa !== sb) return sa < sb ? 1 : -1;
  return nb - na;
}

/** Turns `2024-05-01T12-30-00.000Z(-1).json` back into an ISO time. */
function savedAtOf(file: string, mtime: Date): string {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-(\d{2}(?:\.\d+)?Z)/.exec(file);
  return m ? `${m[1]}:${m[2]}:${m[3]}` : mtime.toISOString();
}

/** Reads a backup or any form document file; a parse error is a usage error naming the file. */
export async function readFormFile(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw cannotRead(path, err);
  }
  return parseFormJson(text, path);
}

/** Parses a form document; the error says where the JSON broke. */
export function parseFormJson(text: string, source: string): Record<string, unknown> {
  return parseJsonObject(text, source, {
    expected: 'a JSON object (a form)',
    severalHint: 'One form per file (NDJSON is not read here): `formctl form get --json` prints one, as form apply, create and update take it.',
  });
}
