import { readFile } from 'node:fs/promises';
import { SandboxError } from './errors.js';
import { ABILITIES, ROLES } from './model.js';
import type { StateFile } from './model.js';
import { isObject } from './validation.js';
import { writeFileAtomic } from '../atomic-file.js';
import { fsReason } from '../fs-reason.js';

/**
 * Reads the data file. Returns null when it does not exist yet. Anything else that is wrong
 * (unreadable, not JSON, not our shape) throws a one-line SandboxError and leaves the file alone.
 */
export async function loadStateFile(path: string): Promise<StateFile | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SandboxError(`Sandbox data file ${path} is not valid sandbox state: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    if (text.trim() === '') throw new Error('the file is empty');
    parsed = JSON.parse(text);
  } catch (err) {
    throw new SandboxError(`Sandbox data file ${path} is not valid sandbox state: ${(err as Error).message}`);
  }
  const problem = stateProblem(parsed);
  if (problem) throw new SandboxError(`Sandbox data file ${path} is not valid sandbox state: ${problem}`);
  return parsed as StateFile;
}

const COLLECTIONS = ['users', 'tokens', 'workspaces', 'memberships', 'invites', 'forms', 'submissions', 'integrations', 'events'] as const;
const COUNTERS = ['user', 'workspace', 'invite', 'form', 'submission', 'integration', 'event'] as const;

/** Why a parsed value is not a state file we wrote, or null. Checks structure, not every field. */
function stateProblem(v: unknown): string | null {
  if (!isObject(v) || v.format !== 'formctl-sandbox-state') return 'missing "format": "formctl-sandbox-state"';
  if (v.version !== 1) return `unsupported version ${JSON.stringify(v.version)}`;
  if (!isObject(v.counters)) return '"counters" is not an object';
  for (const c of COUNTERS) {
    if (!Number.isInteger(v.counters[c])) return `"counters.${c}" is not an integer`;
  }
  if (!isObject(v.meta) || !isObject(v.meta.tokens)) return '"meta.tokens" is missing';
  for (const k of ['all', 'readonly', 'forms', 'noIntegrations']) {
    if (typeof v.meta.tokens[k] !== 'string') return `"meta.tokens.${k}" is not a string`;
  }
  if (!Number.isInteger(v.meta.workspaceId)) return '"meta.workspaceId" is not an integer';
  if (v.meta.users !== undefined) {
    if (!Array.isArray(v.meta.users) || !v.meta.users.every((u) => isObject(u) && Number.isInteger(u.user_id) && typeof u.token === 'string')) {
      return '"meta.users" is malformed';
    }
  }
  for (const name of COLLECTIONS) {
    const list = v[name];
    if (!Array.isArray(list)) return `"${name}" is not an array`;
    for (const [i, item] of list.entries()) {
      if (!isObject(item)) return `"${name}[${i}]" is not an object`;
      const key = name === 'tokens' ? 'user_id' : name === 'memberships' ? 'workspace_id' : 'id';
      if (!Number.isInteger(item[key])) return `"${name}[${i}].${key}" is not an integer`;
    }
  }
  for (const [i, t] of (v.tokens as Record<string, unknown>[]).entries()) {
    if (typeof t.token !== 'string' || !Array.isArray(t.abilities)) return `"tokens[${i}]" is malformed`;
    if (!t.abilities.every((a) => (ABILITIES as readonly unknown[]).includes(a))) return `"tokens[${i}].abilities" has an unknown ability`;
  }
  for (const [i, m] of (v.memberships as Record<string, unknown>[]).entries()) {
    if (!(ROLES as readonly unknown[]).includes(m.role)) return `"memberships[${i}].role" is not a role`;
  }
  for (const [i, f] of (v.forms as Record<string, unknown>[]).entries()) {
    if (typeof f.slug !== 'string' || !isObject(f.attrs) || !Array.isArray(f.properties)) return `"forms[${i}]" is malformed`;
    if (f.removed_properties !== undefined && !Array.isArray(f.removed_properties)) return `"forms[${i}].removed_properties" is malformed`;
  }
  return null;
}

interface Waiter {
  version: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * Group commit of the state: a mutation marks it dirty; one writer (never two at once) serialises
 * the whole state on the next turn of the event loop and writes it durably. Mutations made while a
 * write runs go together into the next one. `waitFor(version)` resolves once a write holding that
 * store version is durable, so a request is answered only after its change would survive a crash.
 * `flush()` (used by close) waits until nothing is left unwritten.
 */
export class DataFileWriter {
  private dirty = false;
  private scheduled = false;
  private running: Promise<void> | undefined;
  private lastError: Error | undefined;
  private flushing = 0;
  private durableVersion = 0;
  private waiters: Waiter[] = [];

  constructor(
    private readonly path: string,
    private readonly serialise: () => string,
    private readonly version: () => number,
  ) {}

  /** Notes that the state changed; a write starts on the next turn (or right after the current one). */
  markDirty(): void {
    this.dirty = true;
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  /** Resolves once the data file durably holds store version `version` (or later); rejects if that write failed. */
  waitFor(version: number): Promise<void> {
    if (version <= this.durableVersion) return Promise.resolve();
    // Every change already marked the state dirty (store.onChange), so a write holding it is on its way.
    return new Promise((resolve, reject) => this.waiters.push({ version, resolve, reject }));
  }

  /** Writes any pending change now and resolves when the file is up to date. */
  async flush(): Promise<void> {
    this.flushing += 1;
    try {
      if (this.running) await this.running;
      if (this.dirty) await this.run();
    } finally {
      this.flushing -= 1;
    }
    if (this.lastError) {
      const err = this.lastError;
      this.lastError = undefined;
      throw new SandboxError(`Could not write sandbox data file ${this.path}: ${fsReason(err, 'write')}.`);
    }
  }

  private settle(version: number, err?: Error): void {
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.version > version) still.push(w);
      else if (err) w.reject(err);
      else w.resolve();
    }
    this.waiters = still;
  }

  private run(): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      await Promise.resolve(); // so that `running` is assigned before the loop can clear it
      while (this.dirty) {
        this.dirty = false;
        const version = this.version();
        try {
          await writeFileAtomic(this.path, this.serialise());
          this.lastError = undefined;
          this.durableVersion = Math.max(this.durableVersion, version);
          this.settle(version);
        } catch (err) {
          this.lastError = err as Error;
          this.settle(version, err as Error);
          // A background write has nobody to throw to: warn. A flush reports the error itself.
          if (!this.flushing) process.emitWarning(`formctl sandbox: could not write ${this.path}: ${fsReason(err, 'write')}.`);
          // Still unsaved: the next change or flush tries again.
          this.dirty = true;
          break;
        }
      }
      // Cleared in the same synchronous step as the last dirty check: a mutation arriving after
      // this point sees no running writer and schedules a new write.
      this.running = undefined;
    })();
    return this.running;
  }
}
