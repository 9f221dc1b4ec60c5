import { randomBytes } from 'node:crypto';

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
