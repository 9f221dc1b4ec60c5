// Secrets that travel in URLs: an export file's capability token (`?token=…`), a pre-signed
// storage URL (`X-Amz-Signature`, `X-Goog-Signature`, `sig`, …). Debug lines and error messages
// show such a URL with those values replaced, whatever its origin (docs/security.md).

/** Query parameter names whose value is a secret or grants access. */
const SECRET_PARAM = /^(x-amz-|x-goog-|x-ms-)|token|signature|^sig$|secret|password|passwd|^key$|api[-_]?key|auth|credential|^code$|session/i;

/**
 * Replaces the value of every secret-looking query parameter in `text` (any URL or query in it), and
 * the password of a URL's credentials (`https://user:password@host`, a base URL behind basic auth).
 */
export function redactQuerySecrets(text: string): string {
  return text
    .replace(/(\/\/[^/\s:@]*):[^@\s/]+@/g, '$1:[REDACTED]@')
    .replace(/([?&])([^=&\s#?]+)=([^&\s#]*)/g, (whole, sep: string, name: string, value: string) => {
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed escape: judge the raw name.
      }
      return value !== '' && SECRET_PARAM.test(decoded) ? `${sep}${name}=[REDACTED]` : whole;
    });
}
