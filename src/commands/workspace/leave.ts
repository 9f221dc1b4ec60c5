import { Command } from '@commander-js/extra-typings';
import { leaveWorkspace } from '../../api/workspaces.js';
import type { Factory } from '../../factory.js';
import { profileWords } from '../hint-words.js';
import { notice, resolveFormat, writeDone } from '../../io/output.js';
import { confirmByTyping, confirmDestructive } from '../../io/prompter.js';
import { formsPhrase, leaveNeedsCaller, leaveOrphans, orphanReason, passGuard, readWorkspaceFacts, settleCaller, workspaceLabel } from '../../members/guard.js';
import { addOutputOptions, addYesOption, examples, type FlagsOf, workspaceIdArgument } from '../shared.js';
import { forgetDefaultWorkspace } from './shared.js';

/** `formctl workspace leave <id>`: the command and its flags, declared once. */
function workspaceLeaveCommand() {
  const base = new Command('leave')
    .description('Leave a workspace (you lose access to its forms); refused for its only member or only admin')
    .addArgument(workspaceIdArgument())
    .option('--force', 'Leave even when you are its only member or only admin (nobody could manage it afterwards)');
  return examples(addOutputOptions(addYesOption(base), { fields: LEAVE_FIELDS }), [
    'formctl workspace leave 12',
    'formctl workspace leave 12 --yes   # in scripts',
    'formctl workspace leave 12 --yes --json   # {"id":12,"left":true}',
  ]);
}

/** Keys of `workspace leave --json`, shaped as `workspace delete --json`'s. */
const LEAVE_FIELDS = ['id', 'left'] as const;

export type WorkspaceLeaveOptions = FlagsOf<typeof workspaceLeaveCommand> &
  Pick<Factory, 'io' | 'api' | 'prompter'> & {
    /** Forgets the workspace as the profile's default; returns the profile name when it was. */
    forgetDefault?: (id: number) => Promise<string | undefined>;
    /** The resolved context, for the profile a printed command names. */
    context?: Factory['context'];
    /** The <id> argument. */
    id: number;
  };

/** `formctl workspace leave <id>`. */
export function newWorkspaceLeaveCommand(f: Factory, runF = workspaceLeaveRun) {
  return workspaceLeaveCommand().action((id, flags) =>
    runF({ ...flags, io: f.io, api: f.api, prompter: f.prompter, forgetDefault: forgetDefaultWorkspace(f, { ownTokenOnly: true }), context: f.context, id }),
  );
}

/**
 * Reads the members first and refuses (exit 2, unless --force) when the caller is the only member or
 * the only admin: neither service stops it, and the workspace with all its forms would be left to
 * nobody (docs/webhooks-and-members.md, "The last admin"). The refusal comes after the guard's own
 * reads only: the member list and, where it has one admin among several members, who-am-I (or its
 * fallbacks: settleCaller). The workspace's name and form count, for the prompt and messages of a
 * leave that goes ahead, are read only then.
 * On a terminal, asks to type its name.
 */
export async function workspaceLeaveRun(o: WorkspaceLeaveOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  // Off a terminal without --yes nothing can be confirmed: refuse before any request.
  if (!o.yes && !o.io.canPrompt) await confirmDestructive(o.io, o.prompter(), { yes: false, message: `Leave workspace ${o.id}?` });
  const client = await o.api();
  const facts = await readWorkspaceFacts(client, o.id, { force: o.force });
  if (leaveNeedsCaller(facts)) await settleCaller(client, facts);
  // Refused here without --force; going ahead, the name and the form count are read, each only where
  // a message shows it (the prompt, the --force warning; the name also in the ✓ line on a terminal).
  const orphan = leaveOrphans(facts);
  await passGuard(client, facts, orphan, { force: o.force, action: (ws) => `leave ${ws}`, show: { name: !o.yes || o.io.stdoutIsTTY, forms: !o.yes } });
  const ws = workspaceLabel(facts);
  if (orphan) await notice(o.io, `--force: ${orphanReason(facts, orphan)}`, 'warning');
  if (facts.unchecked) await notice(o.io, `--force: the member list of ${ws} could not be read, so nobody checked that it keeps an admin.`, 'warning');
  const message = `Leave ${ws}? You lose access to ${formsPhrase(facts.forms).replace(/^no forms$/, 'it')}.`;
  if (facts.name) await confirmByTyping(o.io, o.prompter(), { yes: o.yes, message, what: 'its name', expected: facts.name, warning: '' });
  else await confirmDestructive(o.io, o.prompter(), { yes: o.yes, message });
  await leaveWorkspace(client, o.id);
  await writeDone(o.io, format, { id: o.id, left: true }, `You left ${ws}.`);
  const profile = await o.forgetDefault?.(o.id);
  if (profile)
    await notice(
      o.io,
      `workspace ${o.id} was the default of profile ${profile}; it has none now (pick one with \`formctl${await profileWords(o.context)} workspace use <id>\`).`,
    );
}
