import { Command, Option } from '@commander-js/extra-typings';
import { INVITE_STATUSES, type Invite, type InviteStatus, listInvites } from '../../api/invites.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { applyLimit, listLimit, moreNote } from '../../io/limit.js';
import { type Column, notice, resolveFormat, writeList } from '../../io/output.js';
import { withSpinner } from '../../io/spinner.js';
import { type FlagsOf, addOutputOptions, addWorkspaceOption, examples, addLimitOptions } from '../shared.js';

export const INVITE_FIELDS = ['id', 'email', 'role', 'status', 'valid_until'] as const;

/** Parses `--status`; exit 2 with the accepted values. */
export function parseInviteStatus(v: string): InviteStatus {
  const s = v.trim().toLowerCase();
  if (!(INVITE_STATUSES as readonly string[]).includes(s)) {
    throw new UsageError(`Unknown invite status "${v}".`, `Accepted statuses: ${INVITE_STATUSES.join(', ')}.`);
  }
  return s as InviteStatus;
}

/** `formctl invite list`: the command and its flags, declared once. */
function inviteListCommand() {
  const base = new Command('list')
    .alias('ls')
    .description('List the invites of a workspace (admins only)')
    .addOption(new Option('--status <status>', 'Only invites with this status').choices(INVITE_STATUSES).argParser(parseInviteStatus));
  return examples(addOutputOptions(addWorkspaceOption(addLimitOptions(base, 'invites')), { list: true, fields: INVITE_FIELDS }), [
    'formctl invite list',
    'formctl invite list --status pending -w 12',
    'formctl invite list --status pending --json id,email | jq -r \'.[] | "\\(.id) \\(.email)"\'',
  ]);
}

export type InviteListOptions = FlagsOf<typeof inviteListCommand> &
  Pick<Factory, 'io' | 'api' | 'now'> & {
    /** The Factory's resolver: the -w flag, then FORMCTL_WORKSPACE, then the profile's. */
    resolveWorkspace: (flag?: number) => Promise<number>;
  };

/** `formctl invite list`. */
export function newInviteListCommand(f: Factory, runF = inviteListRun) {
  return inviteListCommand().action((flags) => runF({ ...flags, io: f.io, api: f.api, resolveWorkspace: (w) => f.workspace(w), now: f.now }));
}

/** Lists invites, filtered by status on the client (the endpoint takes no query parameters). */
export async function inviteListRun(o: InviteListOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const limit = listLimit(format, o);
  const workspaceId = await o.resolveWorkspace(o.workspace);
  const client = await o.api();
  const invites = (await withSpinner(o.io, 'Loading invites…', () => listInvites(client, workspaceId))).filter((i) => !o.status || i.status === o.status);
  const now = o.now();
  // Deployed servers also list pending invites past valid_until; people should see they no longer work.
  const expired = (i: Invite) => i.status === 'pending' && i.valid_until !== null && Date.parse(i.valid_until) < now.getTime();
  const columns: Column<Invite>[] = [
    { header: 'ID', value: (i) => i.id, style: 'cyan' },
    { header: 'Email', value: (i) => i.email, keep: true },
    { header: 'Role', value: (i) => i.role },
    { header: 'Status', value: (i) => (format.kind === 'table' && expired(i) ? 'pending (expired)' : i.status) },
    { header: 'Valid until', value: (i) => i.valid_until, time: true },
  ];
  const what = o.status ? `${o.status} invites` : 'invites';
  const { rows, cut } = applyLimit(invites, limit);
  await writeList(o.io, format, rows, columns, { now, empty: `No ${what} in workspace ${workspaceId}.` });
  if (cut) await notice(o.io, moreNote(rows.length, 'invites', o.status !== undefined));
}
