import { Command } from '@commander-js/extra-typings';
import { notLoggedIn } from '../../config/resolve.js';
import { CliError, ExitCode } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { write } from '../../io/iostreams.js';
import { profileFlag } from '../../io/shell-word.js';
import { type FlagsOf, examples } from '../shared.js';

/** `formctl auth token`: the command and its flags, declared once. */
function authTokenCommand() {
  const base = new Command('token').description('Print the active token to stdout, unmasked (the one command that shows it)');
  return examples(base, ['formctl auth token', 'curl -H "Authorization: Bearer $(formctl auth token)" https://api.opnform.com/open/workspaces']);
}

export type AuthTokenOptions = FlagsOf<typeof authTokenCommand> & Pick<Factory, 'io' | 'context'>;

/** `formctl auth token`. */
export function newAuthTokenCommand(f: Factory, runF = authTokenRun) {
  return authTokenCommand().action((flags) => runF({ ...flags, io: f.io, context: f.context }));
}

/** Prints the raw token: an explicit request, so no masking. */
export async function authTokenRun(o: AuthTokenOptions): Promise<void> {
  const ctx = await o.context();
  if (ctx.profileProblem) throw ctx.profileProblem;
  if (ctx.missingProfile) throw ctx.missingProfile;
  if (!ctx.token) {
    if (ctx.withheldToken) throw notLoggedIn(ctx);
    throw new CliError(`No token (profile "${ctx.profileName}").`, ExitCode.auth, `Run \`formctl${profileFlag(ctx)} auth login\`, or set FORMCTL_TOKEN.`);
  }
  await write(o.io.stdout, `${ctx.token}\n`);
}
