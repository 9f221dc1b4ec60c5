/** Exit codes: a contract with scripts. README and `formctl help exit-codes` list them. */
export const ExitCode = {
  ok: 0,
  error: 1,
  usage: 2,
  cancelled: 3,
  auth: 4,
  forbidden: 5,
  notFound: 6,
  validation: 7,
  rateLimited: 8,
  conflict: 9,
  partial: 10,
  network: 11,
  proxy: 12,
  hangup: 129,
  interrupted: 130,
  terminated: 143,
} as const;

/** Human descriptions of the exit codes, in order. */
export const EXIT_CODE_TABLE: ReadonlyArray<readonly [number, string]> = [
  [0, 'Success'],
  [1, 'Unexpected error, the server failed (5xx), or an HTTP status no other code covers'],
  [2, 'Usage error or invalid local input (bad flag, value, file or field)'],
  [3, 'Cancelled at a confirmation prompt'],
  [4, 'Not authenticated: no token, or the server rejected it (401)'],
  [5, 'Forbidden (403): missing token ability, workspace role, membership or seat limit; or a feature the plan lacks (402)'],
  [6, 'Not found (404), or the path does not take that method (405)'],
  [7, 'Rejected by server validation (400/422), or a request body too large for the service (413)'],
  [8, 'Rate limited (429) for longer than --max-wait'],
  [9, 'Conflict: the object changed since it was read'],
  [10, 'Partial failure: some items of a bulk run failed, or a list could not be read whole'],
  [11, 'Network error, timeout or TLS failure'],
  [
    12,
    'The proxy (HTTPS_PROXY, HTTP_PROXY) refused the connection, could not be reached, failed TLS (an https:// proxy whose certificate is not trusted) or did not finish its TLS handshake within --timeout (an http:// proxy written as https://), did not answer the tunnel request within --timeout, closed the connection unanswered or answered in something that is not HTTP, asked for credentials or refused them (407; tinyproxy: 401), or is not http:// or https:// (socks5://)',
  ],
  [129, 'Stopped by SIGHUP (the terminal closed), after the same cleanup as Ctrl-C'],
  [130, 'Interrupted (Ctrl-C)'],
  [143, 'Stopped by SIGTERM (kill, timeout, a CI cancel), after the same cleanup as Ctrl-C'],
];

/** Base class of every error formctl reports to the user; carries its exit code and an optional hint. */
export class CliError extends Error {
  /**
   * The hint sends the reader to `formctl auth status` to check the base URL. `auth status`, which
   * is that check, gives its own hint for such an error instead (src/commands/auth/status.ts).
   */
  readonly hintChecksBaseUrl: boolean;

  /**
   * The profile the hint's formctl commands act on, when it is not the one in effect: `form copy
   * --to-profile` sets it on what the target's service (or the target profile) raised, so that main.ts
   * report() puts that profile's `--profile` into the hint, never the source's.
   */
  hintProfile?: { profileName: string; profileSource: string };

  constructor(
    message: string,
    readonly exitCode: number = ExitCode.error,
    readonly hint?: string,
    options: { hintChecksBaseUrl?: boolean } = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.hintChecksBaseUrl = options.hintChecksBaseUrl ?? false;
  }
}

/** Bad flags, bad values, bad local files: exit 2. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.usage, hint);
  }
}

/** The user declined a confirmation: exit 3. */
export class CancelledError extends CliError {
  constructor(message = 'Cancelled.') {
    super(message, ExitCode.cancelled);
  }
}

/** Ctrl-C: exit 130. */
export class InterruptedError extends CliError {
  constructor(message = 'Interrupted.') {
    super(message, ExitCode.interrupted);
  }
}

/** The object changed under us (optimistic concurrency): exit 9. */
export class ConflictError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.conflict, hint);
  }
}

/** Some items of a bulk run failed: exit 10. */
export class PartialFailureError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.partial, hint);
  }
}
