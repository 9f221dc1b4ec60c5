/** The filename from a Content-Disposition header: RFC 6266 `filename*=UTF-8''…` first, then quoted or bare `filename=`. */
export function dispositionFilename(header: string | string[] | undefined): string | undefined {
  const h = Array.isArray(header) ? header[0] : header;
  if (!h) return undefined;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(h);
  if (star) {
    try {
      return safeFileName(decodeURIComponent(star[2]!.trim()));
    } catch {
      // A malformed percent-encoding falls through to the plain parameter.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(h);
  if (quoted) return safeFileName(quoted[1]!.replace(/\\(.)/g, '$1'));
  // The deployed server leaves a token-safe name unquoted (docs/service-details.md, Export).
  const bare = /filename\s*=\s*([^;\s]+)/i.exec(h);
  return bare ? safeFileName(bare[1]!) : undefined;
}

// eslint-disable-next-line no-control-regex
const C0_AND_DEL = /[\u0000-\u001f\u007f]/g;

/**
 * A server-chosen name must never pick the directory: keep the last segment only and drop control
 * characters, so `../../.bashrc` or `a/b.csv` cannot write outside the current directory or to a dot file.
 */
export function safeFileName(name: string): string | undefined {
  // Leading dots are dropped too: a server must not pick a hidden file such as `.bashrc` or `.profile`.
  const base = name.split(/[/\\]/).pop()!.replace(C0_AND_DEL, '').trim().replace(/^\.+/, '');
  if (!base) return undefined;
  return base;
}
