import { Argument, Command } from '@commander-js/extra-typings';
import { completes } from '../../completion/kinds.js';
import { listWorkspaces } from '../../api/workspaces.js';
import { UsageError } from '../../errors.js';
import { DEFAULT_BASE_URL, originOf } from '../../config/store.js';
import type { Factory } from '../../factory.js';
import { escapeControls, success } from '../../io/output.js';
import { examples, type FlagsOf, parseId } from '../shared.js';

/** `formctl workspace use <id>`: the command and its flags, declared once. */
function workspaceUseCommand() {
  // Optional, so that a person on a terminal can pick it (Commander would refuse a missing <id> first).
  const id = completes(new Argument('[id]', 'Workspace id (picked from a list on a terminal when omitted)').argParser(parseId('workspace id')), 'workspace');
  const base = new Command('use').description('Make a workspace the default for this profile (-w overrides it)').addArgument(id);
  return examples(base, ['formctl workspace use 12', 'formctl form list   # now lists workspace 12']);
}

export type WorkspaceUseOptions = FlagsOf<typeof workspaceUseCommand> &
  Pick<Factory, 'io' | 'api' | 'config'> & {
    profileName: () => Promise<string>;
    /** The resolved context: the base URL in effect and the profile's own. */
    context?: Factory['context'];
    /** The <id> argument. */
    id: number;
  };

/** `formctl workspace use <id>`. */
export function newWorkspaceUseCommand(f: Factory, runF = workspaceUseRun) {
  return workspaceUseCommand().action(async (idArg, flags) => {
    let id = idArg;
    if (id === undefined) {
      if (!f.io.canPrompt) throw new UsageError('Missing the workspace id.', 'Pass one: formctl workspace use <id> (see `formctl workspace list`).');
      id = await (await import('../pickers.js')).pickWorkspace(f, '<id>');
    }
    return runF({ ...flags, io: f.io, api: f.api, config: f.config, profileName: async () => (await f.context()).profileName, context: f.context, id });
  });
}

/** Checks the workspace exists for this token, then stores it in the profile. */
export async function workspaceUseRun(o: WorkspaceUseOptions): Promise<void> {
  // FORMCTL_BASE_URL at another service: its workspace ids mean nothing on the profile's own service.
  const ctx = await o.context?.();
  if (ctx && ctx.baseUrlSource === 'env' && ctx.profile && originOf(ctx.profile.baseUrl || DEFAULT_BASE_URL) !== originOf(ctx.baseUrl)) {
    throw new UsageError(
      `FORMCTL_BASE_URL (${originOf(ctx.baseUrl) ?? ctx.baseUrl}) is another service than profile "${ctx.profileName}"'s (${originOf(ctx.profile.baseUrl || DEFAULT_BASE_URL) ?? ctx.profile.baseUrl}), so its workspace cannot be that profile's default; nothing was saved.`,
      'Set FORMCTL_WORKSPACE for it instead, or unset FORMCTL_BASE_URL.',
    );
  }
  const workspaces = await listWorkspaces(await o.api());
  // Names come from the service: every control character, tab and newline too, is shown escaped
  // (a line break would split the one-line hint and let the rest pass for a line of formctl's own).
  const ws = workspaces.find((w) => w.id === o.id);
  if (!ws) {
    throw new UsageError(
      `Workspace ${o.id} is not one of yours.`,
      `Your workspaces: ${workspaces.map((w) => `${w.id} (${escapeControls(String(w.name), { all: true })})`).join(', ') || 'none'}`,
    );
  }
  const store = await o.config();
  const name = await o.profileName();
  if (!store.profile(name)) {
    throw new UsageError(`Profile "${name}" is not saved, so it cannot hold a default workspace.`, 'Run `formctl auth login` first, or set FORMCTL_WORKSPACE.');
  }
  await store.saveProfile(name, { workspace: o.id });
  await success(o.io, `Default workspace for profile ${name}: ${escapeControls(String(ws.name), { all: true })} (id ${ws.id}).`);
}
