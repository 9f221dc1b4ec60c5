// Words of a formctl command shown in a hint, so that it runs as written when pasted into a shell.

/** A word for a shell command shown in a hint: as it is when nothing in it needs quoting, else in single quotes. */
export function shellWord(s: string): string {
  return /^[\w./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * ` --profile NAME` for a command shown in a hint, when the profile in effect came from `--profile`
 * or FORMCTL_PROFILE (another shell would not pick it); empty otherwise.
 */
export function profileFlag(ctx: { profileName: string; profileSource: string } | undefined): string {
  return ctx && (ctx.profileSource === 'flag' || ctx.profileSource === 'env') ? ` --profile ${shellWord(ctx.profileName)}` : '';
}

/**
 * The hint's way to set a default workspace: `config set workspace`, which works with any token
 * (`workspace use` checks the id against the workspace list, which needs the workspaces-read ability).
 */
export function setWorkspaceHint(ctx: { profileName: string; profileSource: string } | undefined): string {
  return `Or set a default: formctl${profileFlag(ctx)} config set workspace <id> (see formctl${profileFlag(ctx)} workspace list).`;
}

/** The command groups that act on a profile (its service, token or settings): a hint naming one needs the profile. */
const PROFILE_COMMANDS = new Set(['api', 'auth', 'config', 'form', 'integration', 'invite', 'member', 'submission', 'webhook', 'workspace']);

/**
 * A hint with ` --profile NAME` (profileFlag) put into each `formctl <group>` command it shows of a
 * group that acts on a profile, so that pasted into another shell it acts on the same profile. A
 * command that already names its profile (`formctl --profile …`) and words that are no such command
 * (`formctl sends…`, `formctl profile list`) are left as they are.
 */
export function withProfileFlag(text: string, ctx: { profileName: string; profileSource: string } | undefined): string {
  const flag = profileFlag(ctx);
  if (!flag) return text;
  return text.replace(/\bformctl (?=([a-z][\w-]*))/g, (m, group: string) => (PROFILE_COMMANDS.has(group) ? `formctl${flag} ` : m));
}
