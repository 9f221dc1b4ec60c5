// Secrets that travel in URLs: an export file's capability token (`?token=…`), a pre-signed
// storage URL (`X-Amz-Signature`, `X-Goog-Signature`, `sig`, …), credentials before the host, and
// the secret path of a chat service's incoming webhook (`hooks.slack.com/services/T…/B…/<secret>`).
// One set of rules (docs/security.md, "Secrets in URLs"), two ways to hide a value: debug lines and
// error messages write `[REDACTED]`; a webhook's URL in output is masked as its secret is (`••••1234`).

/** Query parameter names whose value is a secret or grants access. */
const SECRET_PARAM =
  /^(x-amz-|x-goog-|x-ms-)|token|signature|^sig$|secret|password|passwd|^pwd$|(^|[-_.]|api|access|private|subscription|functions)key$|api[-_]?key|auth|credential|^code$|session/i;

/** A path segment named like this is followed by a secret (`/trigger/e/with/key/<key>`, `/token/<token>`). */
const SECRET_SEGMENT = /^(token|key|secret|apikey|api[-_]key|access[-_]token)$/i;

/**
 * Known incoming-webhook services whose URL path is the credential: for a host matching `host`, the
 * indexes (into the path's segments) of the segments that are secret. Ids that only tell hooks
 * apart (Slack's team and bot ids, Discord's webhook id, Zapier's account) are kept.
 */
const SECRET_PATHS: Array<{ host: RegExp; secret: (segments: string[]) => number[] }> = [
  // hooks.slack.com/services/T…/B…/<secret>, /workflows/T…/A…/<id>/<secret>, /triggers/T…/<id>/<secret>
  { host: /^hooks\.slack(-gov)?\.com$/i, secret: (s) => (/^(services|workflows|triggers)$/.test(s[0] ?? '') && s.length > 2 ? [s.length - 1] : []) },
  // discord.com/api[/v10]/webhooks/<id>/<token>[/slack|/github]
  {
    host: /^((ptb|canary)\.)?discord(app)?\.com$/i,
    secret: (s) => {
      const at = s.indexOf('webhooks');
      return s[0] === 'api' && at > 0 && s.length > at + 2 ? [at + 2] : [];
    },
  },
  // <tenant>.webhook.office.com/webhookb2/<group>@<tenant>/IncomingWebhook/<id>/<owner>[/<key>], and the older outlook.office.com/webhook/…
  {
    host: /(^|\.)webhook\.office\.com$|^outlook\.office(365)?\.com$/i,
    secret: (s) => (/^webhook(b2)?$/i.test(s[0] ?? '') ? s.map((_, i) => i).filter((i) => i > 0 && !/^IncomingWebhook$/i.test(s[i]!)) : []),
  },
  // hooks.zapier.com/hooks/catch/<account>/<hook>/
  { host: /^hooks\.zapier\.com$/i, secret: (s) => (s[0] === 'hooks' && s.length > 3 ? s.map((_, i) => i).filter((i) => i > 2) : []) },
  // hook.<zone>.make.com/<token>, hook.integromat.com/<token>
  { host: /^hook\.([a-z0-9-]+\.)?(make|integromat)\.com$/i, secret: (s) => s.map((_, i) => i) },
  // maker.ifttt.com/use/<key> (the /with/key/<key> form is covered by SECRET_SEGMENT)
  { host: /^maker\.ifttt\.com$/i, secret: (s) => (s[0] === 'use' && s.length > 1 ? [1] : []) },
];

/** A `//host/path` in text: optional credentials, host (a name, or an IPv6 address in brackets), optional port, then the path up to a query, fragment or delimiter. */
const HOST_PATH = /\/\/((?:[^/\s?#@"'<>]*@)?)(\[[0-9a-f:.]+\]|[^/\s?#"'<>:@]+)((?::\d+)?)(\/[^\s?#"'<>]*)/gi;

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    // A malformed escape: judge the raw text.
    return name;
  }
}

/** A query (or fragment) value: in a URL on its own it ends only at `&`, `#` or a character a URL cannot hold unescaped. */
const BARE_VALUE = /([?&#])([^=&\s#?"'<>]+)=([^&\s#"<>]*?)(\.?)(?=[&\s#"<>]|$)/g;
/** In a message, a value also ends where the prose around the URL resumes: `)`, `;`, `,`, a quote and a final `.` are not part of it. */
const PROSE_VALUE = /([?&#])([^=&\s#?"'<>]+)=([^&\s#"'<>();,]*?)(\.?)(?=[&\s#"'<>();,]|$)/g;

/** Hides the secret values of a query; a value that is not secret is looked into, as it may hold a URL with its own query. */
function maskQuery(query: string, hide: (value: string) => string, bare: boolean): string {
  return query.replace(bare ? BARE_VALUE : PROSE_VALUE, (whole, sep: string, name: string, value: string, dot: string) => {
    if (value === '') return whole;
    if (SECRET_PARAM.test(decodeName(name))) return `${sep}${name}=${hide(value)}${dot}`;
    const inner = value.indexOf('?');
    return inner < 0 ? whole : `${sep}${name}=${value.slice(0, inner)}${maskQuery(value.slice(inner), hide, bare)}${dot}`;
  });
}

/**
 * Replaces, in `text` (a URL, or any text holding URLs or queries), each secret part with
 * `hide(value)`: the value of every secret-looking query (or fragment) parameter, the password of a
 * URL's credentials (`https://user:password@host`), and the secret path segments of the known
 * webhook services and of segments after `/token/`, `/key/`, … Everything else is kept as written.
 */
export function maskUrlSecrets(text: string, hide: (value: string) => string): string {
  // Text without white space is a URL on its own (a stored webhook URL, a request's path and query).
  const bare = !/\s/.test(text);
  return maskQuery(
    text.replace(/(\/\/[^/\s:@?#"'<>]*):([^@\s/?#"'<>]+)@/g, (_w, before: string, password: string) => `${before}:${hide(password)}@`),
    hide,
    bare,
  ).replace(HOST_PATH, (whole, userinfo: string, host: string, port: string, path: string) => {
    const segments = path.slice(1).split('/');
    // A fully qualified name (`hooks.slack.com.`) is the same host.
    const secret = new Set(SECRET_PATHS.find((p) => p.host.test(host.replace(/\.$/, '')))?.secret(segments) ?? []);
    segments.forEach((_, i) => {
      if (i > 0 && SECRET_SEGMENT.test(decodeName(segments[i - 1]!))) secret.add(i);
    });
    const kept = segments.map((seg, i) => (secret.has(i) && seg !== '' ? hide(seg) : seg));
    return secret.size === 0 ? whole : `//${userinfo}${host}${port}/${kept.join('/')}`;
  });
}

/**
 * Replaces the value of every secret-looking query parameter in `text` (any URL or query in it), the
 * password of a URL's credentials (`https://user:password@host`, a base URL behind basic auth), and
 * the secret path of a known incoming-webhook URL, with `[REDACTED]`: for debug lines and errors.
 */
export function redactQuerySecrets(text: string): string {
  return maskUrlSecrets(text, () => '[REDACTED]');
}

/**
 * Below this length a token is masked only where it stands on its own (not inside a longer run of
 * letters and digits), so a trivially short one (`x`) does not mangle every word holding it
 * (`/e[REDACTED]ternal`); from this length on it is masked wherever it appears. Real tokens are far
 * longer (the service's: `<id>|` and at least 40 random characters; the sandbox's: 36).
 */
export const TOKEN_SUBSTRING_MIN = 8;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The forms a token takes in text that may reach the terminal: as it is, percent-encoded (in a URL),
 * and escaped in a JSON string (with `\/`, as PHP's json_encode writes a slash).
 */
function tokenForms(token: string): string[] {
  let encoded = token;
  try {
    encoded = encodeURIComponent(token);
  } catch {
    // A lone surrogate cannot be encoded; checkToken refuses such tokens anyway.
  }
  const json = JSON.stringify(token).slice(1, -1);
  return [...new Set([token, encoded, json, json.replace(/\//g, '\\/')])];
}

/**
 * Replaces the token in `text` with `[REDACTED]` in each of its forms (tokenForms): everywhere when it
 * is at least TOKEN_SUBSTRING_MIN characters long, else wherever no letter or digit touches it on
 * either side (docs/security.md, "The token in output").
 */
export function redactToken(text: string, token: string | undefined): string {
  if (!token) return text;
  let out = text;
  for (const form of tokenForms(token)) {
    if (token.length >= TOKEN_SUBSTRING_MIN) out = out.split(form).join('[REDACTED]');
    else out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(form)}(?![\\p{L}\\p{N}])`, 'gu'), '[REDACTED]');
  }
  return out;
}
