import { Command, Option } from '@commander-js/extra-typings';
import { ForbiddenError, UnauthorizedError } from '../../api/errors.js';
import { type Workspace, listWorkspaces } from '../../api/workspaces.js';
import { checkToken, normalizeBaseUrl } from '../../config/resolve.js';
import type { Profile } from '../../config/store.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { done, notice, success } from '../../io/output.js';
import { whoAmI } from '../../api/account.js';
import { readAll } from '../../io/iostreams.js';
import { profileFlag, shellWord } from '../../io/shell-word.js';
import { type FlagsOf, examples } from '../shared.js';

/** `formctl auth login`: the command and its flags, declared once. */
function authLoginCommand() {
  const base = new Command('login')
    .description('Save a personal access token in a profile, after checking it with the service')
    .addOption(new Option('--base-url <url>', "API base URL (default: the profile's, FORMCTL_BASE_URL, or https://api.opnform.com)"))
    .option('--with-token', 'Read the token from stdin instead of prompting (CI, scripts)')
    .addHelpText('after', '\nThe global --profile <name> chooses the profile to save (default: the current one, or "default").');
  return examples(base, [
    'formctl auth login',
    'formctl auth login --profile work --base-url https://forms.example.com',
    'printenv FORMCTL_CI_TOKEN | formctl auth login --with-token',
  ]);
}

export type AuthLoginOptions = FlagsOf<typeof authLoginCommand> & Pick<Factory, 'io' | 'env' | 'config' | 'context' | 'apiFor' | 'prompter'>;

/** `formctl auth login`. */
export function newAuthLoginCommand(f: Factory, runF = authLoginRun) {
  return authLoginCommand().action((flags) =>
    runF({ ...flags, io: f.io, env: f.env, config: f.config, context: f.context, apiFor: f.apiFor, prompter: f.prompter }),
  );
}

/** Reads the token (stdin or hidden prompt), verifies it with GET /open/workspaces, then saves it. */
export async function authLoginRun(o: AuthLoginOptions): Promise<void> {
  const ctx = await o.context();
  const profileName = ctx.profileName;
  const baseUrl = normalizeBaseUrl(o.baseUrl ?? ctx.baseUrl);
  const host = new URL(baseUrl).host;

  let token: string;
  if (o.withToken) {
    token = (await readAll(o.io.stdin)).toString('utf8').trim();
    if (!token) throw new UsageError('No token on stdin.', `Pipe the token in: \`printenv MY_TOKEN | formctl${profileFlag(ctx)} auth login --with-token\`.`);
  } else {
    if (!o.io.canPrompt) {
      throw new UsageError(
        'Cannot prompt for the token here (not a terminal, CI, or --no-input).',
        `Pass --with-token and pipe the token on stdin: \`printenv MY_TOKEN | formctl${profileFlag(ctx)} auth login --with-token\`.`,
      );
    }
    token = (await o.prompter().password({ message: `Personal access token for ${host}`, flag: '--with-token' })).trim();
    if (!token) throw new UsageError('The token must not be empty.');
  }
  checkToken(token, o.withToken ? 'The token on stdin' : 'The token');
  if (/\s/.test(token)) throw new UsageError('The token contains whitespace; paste only the token itself.');

  let workspaces: Workspace[] | undefined;
  try {
    workspaces = await listWorkspaces(o.apiFor(baseUrl, token));
  } catch (err) {
    if (err instanceof UnauthorizedError) {
      throw new CliError(
        `${host} rejected this token (HTTP 401); nothing was saved.`,
        ExitCode.auth,
        'Check that you copied the whole token and that it has not been revoked; create a new one in the dashboard if needed.',
      );
    }
    // Authenticated but without workspaces-read: the token works for other things, so keep it.
    if (!(err instanceof ForbiddenError)) throw err;
    await notice(o.io, 'This token cannot list workspaces (it lacks the workspaces-read ability); saving it anyway.', 'warning');
  }

  const store = await o.config();
  const previous = store.profile(profileName);
  // The token is bound to this origin: it is never sent to another base URL (docs/security.md).
  const patch: Partial<Profile> = { baseUrl, token, tokenOrigin: new URL(baseUrl).origin };
  // A default workspace from another service would point at the wrong thing; one of the wrong type
  // (a hand-edited file: `previous` holds only sound fields) is no workspace either. Both are cleared.
  const keptWorkspace = previous?.baseUrl === baseUrl ? previous.workspace : undefined;
  patch.workspace = keptWorkspace;
  let picked: Workspace | undefined;
  if (keptWorkspace === undefined && workspaces?.length === 1) {
    picked = workspaces[0]!;
    patch.workspace = picked.id;
  }
  await store.saveProfile(profileName, patch);

  // Whose the token is, when the service says (docs/service.md, "Who am I"); the login stands without it.
  const account = await whoAmI(o.apiFor(baseUrl, token)).catch(() => null);
  const who = account ? `${account.name ? `${account.name} (${account.email})` : account.email}, profile ${profileName}` : `profile ${profileName}`;
  await done(o.io, `Logged in to ${host} as ${who}`);
  if (picked) await success(o.io, `Default workspace: ${picked.name} (id ${picked.id}), the only one this token can see`);
  const current = store.data.currentProfile;
  if (current !== profileName)
    await notice(o.io, `Profile ${profileName} is not the current one; switch with \`formctl profile use ${shellWord(profileName)}\`.`);
  if (o.env.FORMCTL_TOKEN) await notice(o.io, 'FORMCTL_TOKEN is set in the environment and overrides the saved token.', 'warning');
}
