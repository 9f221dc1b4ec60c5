import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { fsReason } from '../io/files.js';
import { maskUrlSecrets } from '../api/redact.js';

/** 32 random bytes as 64 hex digits: safe in any header, file or config, and far above the minimum. */
export function generateSecret(): string {
  return randomBytes(32).toString('hex');
}

/** `••••` + the last 4 characters, so people can tell secrets apart without exposing them. */
export function maskSecret(secret: string | null | undefined): string | null {
  if (secret === null || secret === undefined || secret === '') return null;
  const chars = [...secret];
  // A short secret would be mostly revealed by its last 4 characters.
  return chars.length <= 8 ? '••••' : `••••${chars.slice(-4).join('')}`;
}

/** A secret read from a file or stdin: trailing line breaks (from `echo` or an editor) are not part of it. */
export function cleanSecret(raw: string): string {
  return raw.replace(/[\r\n]+$/, '');
}

/**
 * A webhook URL safe to print: each secret part (a secret-looking query value, a password before the
 * host, the secret path of a Slack, Discord, Teams, … incoming webhook) masked as a secret is
 * (`••••` + last 4), the rest as stored. The rules are the debug lines' (src/api/redact.ts,
 * docs/security.md "Secrets in URLs"); a URL with nothing secret comes back unchanged.
 */
export function maskWebhookUrl<T>(url: T): T | string {
  return typeof url === 'string' ? maskUrlSecrets(url, (v) => maskSecret(v) ?? '••••') : url;
}

/** Whether printing `url` masked hides anything. */
export function urlHasSecrets(url: unknown): boolean {
  return typeof url === 'string' && maskWebhookUrl(url) !== url;
}

/** A secret from `--secret-file` (trailing line breaks dropped); never echoed in errors. */
export async function readSecretFile(path: string): Promise<string> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`Cannot read --secret-file ${path}: ${fsReason(err)}.`);
  }
  const secret = cleanSecret(raw);
  if (secret === '') throw new UsageError(`--secret-file ${path} is empty.`);
  return secret;
}
