import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import type { Factory } from '../factory.js';

/** A top-level command (group or leaf), loaded only when argv targets it: each is its own bundle chunk. */
export interface CommandEntry {
  name: string;
  aliases?: string[];
  summary: string;
  hidden?: boolean;
  load: () => Promise<{ default: (f: Factory) => Command }>;
}

/** Every top-level command, in help order. */
export const COMMANDS: CommandEntry[] = [
  { name: 'auth', summary: 'Log in, check and print tokens', load: () => import('./auth/index.js') },
  { name: 'profile', summary: 'List, switch and remove saved profiles', load: () => import('./profile/index.js') },
  { name: 'workspace', aliases: ['ws'], summary: 'List, create, update and switch workspaces', load: () => import('./workspace/index.js') },
  { name: 'form', summary: 'Manage forms: list, get, create, safe update, pull/apply', load: () => import('./form/index.js') },
  { name: 'submission', summary: 'List, show, update, bulk-update, delete and export submissions', load: () => import('./submission/index.js') },
  { name: 'member', summary: 'Manage workspace members and their roles', load: () => import('./member/index.js') },
  { name: 'invite', summary: 'List, resend and cancel workspace invites', load: () => import('./invite/index.js') },
  { name: 'integration', summary: "See a form's integrations of every kind (webhooks, Slack, e-mail, …)", load: () => import('./integration/index.js') },
  { name: 'webhook', summary: 'Manage webhook integrations; sign, verify, listen and send deliveries', load: () => import('./webhook/index.js') },
  { name: 'api', summary: 'Make an authenticated request to any API endpoint', load: () => import('./api/index.js') },
  { name: 'config', summary: 'Show where configuration lives and read or change settings', load: () => import('./config/index.js') },
  { name: 'completion', summary: 'Print a shell completion script (bash, zsh, fish)', load: () => import('./completion/index.js') },
  { name: 'sandbox', summary: 'Run a local emulator of the form service', load: () => import('./sandbox/index.js') },
];

/** Finds an entry by name or alias. */
export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name || c.aliases?.includes(name));
}
