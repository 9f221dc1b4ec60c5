/** Failure to start or stop the sandbox itself (bad data file, port in use…); always a one-line message. */
export class SandboxError extends Error {
  override name = 'SandboxError';
}

export type FieldErrors = Record<string, string[]>;

/** An error that the server turns into a JSON response `{message[, errors]}` with its status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** 404 `{message}`. */
export function notFound(message: string): HttpError {
  return new HttpError(404, message);
}

/** 403 `{message}`; the message always names the rule that failed. */
export function forbidden(message: string): HttpError {
  return new HttpError(403, message);
}

/** 400 `{message}`: a controller-level refusal that is not a field error (docs/service-details.md, Error bodies). */
export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

/**
 * 422 `{message, errors}`. The top-level message is the first field error plus
 * "(and N more errors)", as the deployed server words it (docs/service-details.md, Error bodies).
 */
export function validationFailed(errors: FieldErrors): HttpError {
  const all = Object.values(errors).flat();
  const rest = all.length - 1;
  const suffix = rest > 0 ? ` (and ${rest} more error${rest === 1 ? '' : 's'})` : '';
  return new HttpError(422, `${all[0] ?? 'The given data was invalid.'}${suffix}`, errors);
}
