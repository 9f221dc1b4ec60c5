import { Command } from '@commander-js/extra-typings';
import { type ResolvedContext, notLoggedIn } from '../../config/resolve.js';
import { CliError, ExitCode } from '../../errors.js';
import type { Factory } from '../../factory.js';
import type { IOStreams } from '../../io/iostreams.js';
import { write } from '../../io/iostreams.js';
import { examples } from '../shared.js';

export interface AuthTokenOptions {
  io: IOStreams;
  context: () => Promise<ResolvedContext>;
}

/** `formctl auth token`. */
export function newAuthTokenCommand(f: Factory, runF = authTokenRun) {
  const cmd = new Command('token').description('Print the active token to stdout, unmasked (the one command that shows it)');
  examples(cmd, ['formctl auth token', 'curl -H "Authorization: Bearer $(formctl auth token)" https://api.opnform.com/open/workspaces']);
  return cmd.action(() => runF({ io: f.io, context: f.context }));
}

/** Prints the raw token: an explicit request, so no masking. */
export async function authTokenRun(o: AuthTokenOptions): Promise<void> {
  const ctx = await o.context();
  if (!ctx.token) {
    if (ctx.withheldToken) throw notLoggedIn(ctx);
    throw new CliError(`No token (profile "${ctx.profileName}").`, ExitCode.auth, 'Run `formctl auth login`, or set FORMCTL_TOKEN.');
  }
  await write(o.io.stdout, `${ctx.token}\n`);
}
