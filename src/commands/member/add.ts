import { Command, Option } from '@commander-js/extra-typings';
import { type AddResult, ROLES, type Role, addMember, listMembers } from '../../api/members.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { done, escapeControls, notice, resolveFormat, success, writeObject } from '../../io/output.js';
import { promptsOffHint } from '../../io/prompter.js';
import { shellWord } from '../../io/shell-word.js';
import { profileWords } from '../hint-words.js';
import { type FlagsOf, addOutputOptions, addWorkspaceOption, examples } from '../shared.js';
import { isValidEmail, parseEmail, parseRole } from './shared.js';

export const ADD_FIELDS = ['outcome', 'message'] as const;

/** `formctl member add [email] --role <role>`: the command and its flags, declared once. */
function memberAddCommand() {
  const base = new Command('add')
    .description('Add a person to a workspace by email, or invite them when they have no account')
    .argument('[email]', 'Email address of the person to add (prompted on a terminal when omitted)')
    .addOption(new Option('--role <role>', 'Role in the workspace (prompted on a terminal when omitted)').choices(ROLES).argParser(parseRole));
  const cmd = addOutputOptions(addWorkspaceOption(base), { fields: ADD_FIELDS });
  cmd.addHelpText(
    'after',
    '\nOutcomes: "added" (the account exists and joined), "invited" (no account: an invitation email was sent),\n' +
      '"already_member" (nothing changed; use `formctl member set-role` to change a role).',
  );
  return examples(cmd, [
    'formctl member add alice@example.com --role user',
    'formctl member add bob@example.com --role readonly -w 12',
    'formctl member add carol@example.com --role admin --json | jq -r .outcome',
    'formctl member add   # on a terminal: asks for the email, role and workspace',
  ]);
}

export type MemberAddOptions = FlagsOf<typeof memberAddCommand> &
  Pick<Factory, 'io' | 'api' | 'prompter'> & {
    /** The resolved context, for the profile a printed command names (the Factory's). */
    context?: () => Promise<{ profileName: string; profileSource: string }>;
    /** The Factory's resolver: the -w flag, then FORMCTL_WORKSPACE, then the profile's. */
    resolveWorkspace: (flag?: number) => Promise<number>;
    /** The [email] argument as typed: validated in the run so a bad address never reaches the network; asked on a terminal when absent. */
    email?: string;
  };

/** `formctl member add [email] --role <role>`; run bare on a terminal it asks for the email, role and workspace. */
export function newMemberAddCommand(f: Factory, runF = memberAddRun) {
  return memberAddCommand().action((email, flags) =>
    runF({ ...flags, io: f.io, api: f.api, prompter: f.prompter, context: f.context, resolveWorkspace: (w) => f.workspace(w), email }),
  );
}

/** Validates locally, adds, and reports which of the three outcomes happened. */
export async function memberAddRun(o: MemberAddOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const email = o.email !== undefined ? parseEmail(o.email) : await askEmail(o);
  const role = o.role ?? (await askRole(o));
  const workspaceId = await o.resolveWorkspace(o.workspace);
  const client = await o.api();
  const result: AddResult = await addMember(client, workspaceId, { email, role });

  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(o.io, format, { outcome: result.outcome, message: result.message }, []);
    return;
  }
  switch (result.outcome) {
    case 'added':
      await done(o.io, `Added ${email} to workspace ${workspaceId} as ${role}.`);
      break;
    case 'invited':
      await done(o.io, `Invited ${email} to workspace ${workspaceId} as ${role}: no account exists yet, so an invitation email was sent.`);
      break;
    case 'already_member': {
      // The service does not say their role: read it (one request), so a person who already has the
      // role asked for gets no advice to set it. Unreadable (no workspace-users-read), the advice stays.
      const members = await listMembers(client, workspaceId).catch(() => undefined);
      const current = members?.find((m) => typeof m.email === 'string' && m.email.toLowerCase() === email.toLowerCase())?.role;
      if (current === role) {
        await done(o.io, `${email} is already a member of workspace ${workspaceId}, as ${role}; nothing changed.`);
        break;
      }
      // The requested role was not applied: said on stderr, which scripts' logs keep (one line when piped).
      const was = typeof current === 'string' && current !== '' ? ` (${escapeControls(current, { all: true })})` : '';
      const roleNote = `their role${was} was not changed; to make it ${role}, run \`formctl${await profileWords(o.context)} member set-role -w ${workspaceId} ${shellWord(email)} ${role}\`.`;
      if (o.io.stdoutIsTTY) {
        await success(o.io, `${email} is already a member of workspace ${workspaceId}; nothing changed.`);
        await notice(o.io, roleNote);
      } else await done(o.io, `${email} is already a member of workspace ${workspaceId}; nothing changed: ${roleNote}`);
      break;
    }
  }
}

async function askEmail(o: MemberAddOptions): Promise<string> {
  if (!o.io.canPrompt) throw new UsageError('Missing <email> argument.', promptsOffHint('the email address of the person to add as <email>'));
  const email = await o.prompter().input({
    message: 'Email address',
    flag: '<email>',
    // The same check as the argument's, so a typo is caught here rather than by the service.
    validate: (v) => (isValidEmail(v.trim()) ? true : 'Enter an address such as alice@example.com.'),
  });
  return email.trim();
}

async function askRole(o: MemberAddOptions): Promise<Role> {
  if (!o.io.canPrompt) throw new UsageError('Missing --role.', promptsOffHint(`--role ${ROLES.join('|')}`));
  return o.prompter().select<Role>({
    message: 'Role in the workspace',
    flag: '--role',
    choices: [
      { name: 'user', value: 'user', description: 'Can create and edit forms' },
      { name: 'readonly', value: 'readonly', description: 'Can view forms and submissions' },
      { name: 'admin', value: 'admin', description: 'Can also manage members and the workspace' },
    ],
  });
}
