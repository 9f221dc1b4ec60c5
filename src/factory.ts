import { ApiClient } from './api/client.js';
import { WaitBudget } from './api/wait-budget.js';
import { proxySetting } from './api/proxy.js';
import { redactQuerySecrets } from './api/redact.js';
import { UsageError } from './errors.js';
import { join } from 'node:path';
import { type RateBucket, SharedBudget } from './api/ratelimit.js';
import { cacheDir, configDir, stateDir } from './config/paths.js';
import { type ResolvedContext, checkBaseUrl, notLoggedIn, resolveContext } from './config/resolve.js';
import { type ConfigStore, originOf } from './config/store.js';
import type { IOStreams } from './io/iostreams.js';
import { type Prompter, createPrompter, promptsOffHint } from './io/prompter.js';
import { profileFlag, setWorkspaceHint } from './io/shell-word.js';
import { CLEAR_LINE } from './io/status-line.js';
import { userAgent } from './version.js';

/** Options every command inherits from the root program. */
export interface GlobalOptions {
  profile?: string;
  debug: boolean;
  timeoutMs: number;
  /** --max-wait in ms: the longest total wait of the command (src/api/wait-budget.ts). */
  maxWaitMs: number;
  /** Never wait, neither for retries nor for the rate budget (shell completion). */
  neverWait?: boolean;
  noInput: boolean;
  noColor: boolean;
}

/**
 * A command's dependencies, as lazy getters: nothing heavy loads until a command asks for it.
 * The getters are function-typed properties, not methods: commands hand them on detached (`api: f.api`).
 */
export interface Factory {
  io: IOStreams;
  env: NodeJS.ProcessEnv;
  globals: GlobalOptions;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  now: () => Date;
  config: () => Promise<ConfigStore>;
  /** Profile, base URL, token and default workspace after flag/env/profile resolution. */
  context: () => Promise<ResolvedContext>;
  /** The API client for the resolved context; throws exit 4 when there is no token. */
  api: () => Promise<ApiClient>;
  /** A client for an explicit base URL and token (auth login's verification). */
  apiFor: (baseUrl: string, token: string, o?: { neverWait?: boolean }) => ApiClient;
  /** The workspace to act on: -w flag, FORMCTL_WORKSPACE, or the profile's default. */
  workspace: (flag?: number) => Promise<number>;
  prompter: () => Prompter;
  stateDir: () => string;
  /** A debug line on stderr when --debug / FORMCTL_DEBUG is on. */
  debug: (line: string) => void;
  /** Releases connections so the process can exit. */
  dispose: () => Promise<void>;
}

export interface FactoryInit {
  io: IOStreams;
  env: NodeJS.ProcessEnv;
  globals: GlobalOptions;
  signal: AbortSignal;
  now?: () => Date;
  /** Tests inject a client or a config store. */
  api?: () => Promise<ApiClient>;
  configStore?: ConfigStore;
  prompter?: Prompter;
  /**
   * Asks a person at a terminal for the workspace when none is given (the picker lives with the
   * commands, src/commands/pickers.ts, a layer above this one, so main.ts hands it in). Without it,
   * a missing workspace is a usage error even on a terminal.
   */
  pickWorkspace?: (f: Factory) => Promise<number>;
}

/** Builds the real Factory. */
export function createFactory(init: FactoryInit): Factory {
  const waitNote = waitNotes(init.io);
  let store: Promise<ConfigStore> | undefined = init.configStore ? Promise.resolve(init.configStore) : undefined;
  const clients: ApiClient[] = [];
  let prompter: Prompter | undefined = init.prompter;
  let waits: WaitBudget | undefined;

  const f: Factory = {
    io: init.io,
    env: init.env,
    globals: init.globals,
    signal: init.signal,
    now: init.now ?? (() => new Date()),
    config() {
      store ??= import('./config/store.js').then((m) => m.ConfigStore.open(configDir(init.env)));
      return store;
    },
    async context() {
      return resolveContext(await f.config(), init.env, { profile: f.globals.profile });
    },
    async api() {
      if (init.api) return init.api();
      const ctx = await f.context();
      // A profile with a field of the wrong type (a hand-edited file) is said first: its values are not used.
      if (ctx.profileProblem) throw ctx.profileProblem;
      // A base URL no request can go to is bad local input (exit 2), said before the token is looked at.
      checkBaseUrl(ctx);
      if (ctx.missingProfile) throw ctx.missingProfile;
      if (!ctx.token) throw notLoggedIn(ctx);
      if (ctx.tokenProblem) throw ctx.tokenProblem;
      return f.apiFor(ctx.baseUrl, ctx.token);
    },
    apiFor(baseUrl, token, o) {
      const client = new ApiClient({
        baseUrl,
        token,
        budgets: sharedBudgets(init.env, baseUrl, token, f.globals.debug ? (line) => f.debug(line) : undefined),
        userAgent: userAgent(),
        timeoutMs: f.globals.timeoutMs,
        maxWaitMs: f.globals.maxWaitMs,
        // One wait budget for the whole command, whichever client waits (--max-wait is a total).
        // A side check (another profile in `auth status`) never waits: a service that is down answers at once.
        waits: o?.neverWait ? new WaitBudget(0, Date.now, true) : (waits ??= new WaitBudget(f.globals.maxWaitMs, Date.now, f.globals.neverWait)),
        proxy: proxySetting(init.env),
        signal: init.signal,
        debug: f.globals.debug ? (line) => f.debug(line) : undefined,
        onNote: (text) => init.io.stderr.write(`note: ${text}\n`),
        // Short backoffs pass unremarked; a wait a person would notice is explained on stderr, once
        // for the requests waiting together (waitNotes).
        onWait: waitNote,
      });
      clients.push(client);
      return client;
    },
    async workspace(flag) {
      if (flag !== undefined) return flag;
      const ctx = await f.context();
      if (ctx.profileProblem) throw ctx.profileProblem;
      // A base URL no request can go to is said first, before a missing workspace (which no list could then show).
      checkBaseUrl(ctx);
      if (ctx.missingProfile) throw ctx.missingProfile;
      if (ctx.workspace !== undefined) return ctx.workspace;
      // A person at a terminal picks from a list; scripts get the usage error below.
      if (init.pickWorkspace && init.io.canPrompt && !f.globals.noInput) return init.pickWorkspace(f);
      if (ctx.withheldWorkspace) {
        throw new UsageError(
          `Missing --workspace: the default workspace of profile "${ctx.profileName}" (${ctx.withheldWorkspace.id}) is one of ${ctx.withheldWorkspace.origin}'s, and FORMCTL_BASE_URL points at ${ctx.withheldWorkspace.here}.`,
          promptsOffHint('--workspace <id>', `Or set FORMCTL_WORKSPACE (see formctl${profileFlag(ctx)} workspace list).`),
        );
      }
      throw new UsageError(
        'Missing --workspace.',
        // `config set`, not `workspace use`: a token without workspaces-read cannot run the latter.
        promptsOffHint('--workspace <id>', setWorkspaceHint(ctx)),
      );
    },
    prompter() {
      prompter ??= createPrompter(init.io);
      return prompter;
    },
    stateDir: () => stateDir(init.env),
    debug(line) {
      // Signed or token-bearing queries never reach a debug line, whatever wrote it (docs/security.md).
      if (f.globals.debug) init.io.stderr.write(`[debug] ${redactQuerySecrets(line)}\n`);
    },
    async dispose() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    },
  };
  return f;
}

/** The rate budgets this machine's formctl processes share for one service and token, one per limiter bucket (src/api/ratelimit.ts). */
function sharedBudgets(env: NodeJS.ProcessEnv, baseUrl: string, token: string, debug?: (line: string) => void): Record<RateBucket, SharedBudget> | undefined {
  const origin = originOf(baseUrl);
  if (origin === undefined) return undefined; // ApiClient reports the bad URL.
  const dir = join(cacheDir(env), 'ratelimit');
  return {
    general: new SharedBudget(dir, origin, token, { debug }),
    export: new SharedBudget(dir, origin, token, { debug, bucket: 'export' }),
    external: new SharedBudget(dir, origin, token, { debug, bucket: 'external' }),
  };
}

/**
 * The clients' wait hook: a wait a person would notice is explained on stderr, once. Requests in
 * flight together (a bulk run's --concurrency) wait for the same reason at the same time: the
 * first note stands for every wait of that reason that begins before the waits it covers have
 * ended, so a stretch of overlapping waits is one note, and a later wait gets its own.
 */
function waitNotes(io: IOStreams, now: () => number = Date.now): (w: { ms: number; reason: string }) => void {
  /** Per reason, when the waits covered by its last note end. */
  const covered = new Map<string, number>();
  return ({ ms, reason }) => {
    const t = now();
    const until = covered.get(reason);
    if (until !== undefined && t < until) {
      covered.set(reason, Math.max(until, t + ms));
      return;
    }
    // Short backoffs pass unremarked.
    if (ms < 1000) return;
    covered.set(reason, t + ms);
    // On a terminal a progress line may be drawn: clear it so the note stands on its own line.
    io.stderr.write(`${io.stderrIsTTY ? CLEAR_LINE : ''}note: ${reason}; retrying in ${Math.ceil(ms / 1000)} s (Ctrl-C to stop).\n`);
  };
}
