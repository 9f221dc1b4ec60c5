// Words of a formctl command shown in a hint, so that it runs as written when pasted into a shell.
import type { ResolvedContext } from '../config/resolve.js';

/** A word for a shell command shown in a hint: as it is when nothing in it needs quoting, else in single quotes. */
export function shellWord(s: string): string {
  return /^[\w./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * ` --profile NAME` for a command shown in a hint, when the profile in effect came from `--profile`
 * or FORMCTL_PROFILE (another shell would not pick it); empty otherwise.
 */
export async function profileWords(context: (() => Promise<ResolvedContext>) | undefined): Promise<string> {
  const ctx = await context?.().catch(() => undefined);
  return ctx && (ctx.profileSource === 'flag' || ctx.profileSource === 'env') ? ` --profile ${shellWord(ctx.profileName)}` : '';
}
