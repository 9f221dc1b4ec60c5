// Values for `formctl __complete <source>`: one API call at most, first page only, and each line
// "value<TAB>description" with nothing secret in it (an integration shows its URL's host, never
// its path, query, secret or headers).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient } from '../api/client.js';
import { configDir } from '../config/paths.js';
import type { ResolvedContext } from '../config/resolve.js';
import { safeId } from '../io/ids.js';
import type { DynamicSource } from './model.js';

export interface DynamicRequest {
  source: DynamicSource;
  workspace?: string;
  form?: string;
}

/** What listing needs from the command's Factory (which has all of it): the environment, the client, the default workspace. */
export interface DynamicDeps {
  env: NodeJS.ProcessEnv;
  api(): Promise<ApiClient>;
  context(): Promise<Pick<ResolvedContext, 'workspace'>>;
}

/**
 * Tabs and newlines would break the line protocol, and shells print descriptions in their menus, so
 * every control character (ANSI/OSC escape sequences from a name or title) becomes a space.
 */
function clean(s: unknown): string {
  // eslint-disable-next-line no-control-regex
  return String(s ?? '').replace(/[\x00-\x1f\x7f-\x9f]+/g, ' ').trim();
}

function hostOf(url: unknown): string {
  try {
    return new URL(String(url)).host;
  } catch {
    return '';
  }
}

/** Profile names straight from the config file: no API call and no need to load conf. */
export function profileLines(env: NodeJS.ProcessEnv): string[] {
  try {
    const data = JSON.parse(readFileSync(join(configDir(env), 'config.json'), 'utf8')) as { currentProfile?: string; profiles?: Record<string, { baseUrl?: string }> };
    return Object.entries(data.profiles ?? {}).map(([name, p]) => `${clean(name)}\t${clean(p?.baseUrl)}${name === data.currentProfile ? ' (current)' : ''}`);
  } catch {
    return [];
  }
}

/** Lists a source through the API; throws on any failure (the caller stays silent). */
export async function fetchLines(f: DynamicDeps, req: DynamicRequest): Promise<string[]> {
  switch (req.source) {
    case 'profiles':
      return profileLines(f.env);
    case 'workspaces': {
      const { listWorkspaces } = await import('../api/workspaces.js');
      const list = await listWorkspaces(await f.api());
      return list.map((w) => `${w.id}\t${clean(`${w.icon ? `${w.icon} ` : ''}${w.name}`)}`);
    }
    case 'forms': {
      const ws = (req.workspace !== undefined ? safeId(req.workspace) : undefined) ?? (await f.context()).workspace;
      if (ws === undefined) return [];
      const { listWorkspaceForms } = await import('../api/forms.js');
      const pages = listWorkspaceForms(await f.api(), ws, { all: false });
      const first = await pages.next();
      if (first.done) return [];
      return first.value.items.map((form) => `${form.id}\t${clean(form.title)} (${clean(form.slug)})`);
    }
    case 'integrations': {
      // Only a numeric form id: resolving a slug would cost a second request.
      const formId = req.form === undefined ? undefined : safeId(req.form);
      if (formId === undefined) return [];
      const { listWebhooks } = await import('../api/webhooks.js');
      const list = await listWebhooks(await f.api(), formId);
      return list.map((i) => `${i.id}\t${clean(i.status)} ${hostOf(i.data?.webhook_url)}`.trimEnd());
    }
  }
}
