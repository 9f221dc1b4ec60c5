// Ids for the completion of a dynamic slot: one API call at most, first page only, and each line
// "value<TAB>description" with nothing secret in it (a webhook shows its URL's host, never its
// path, query, secret or headers).
import type { ApiClient } from '../api/client.js';
import { configDir, configFileIn } from '../config/paths.js';
import type { ResolvedContext } from '../config/resolve.js';
import { readConfig } from '../config/store.js';
import { safeId } from '../io/ids.js';
import type { ValueRequest } from './resolve.js';
import { cleanText as clean } from './resolve.js';

/** What listing needs from the program's Factory (which has all of it): the environment, the client, the default workspace. */
export interface DynamicDeps {
  env: NodeJS.ProcessEnv;
  /** The API client for the resolved profile; throws when not logged in. */
  api(): Promise<ApiClient>;
  /** The resolved context: its workspace is the default one (FORMCTL_WORKSPACE, the profile's). */
  context(): Promise<Pick<ResolvedContext, 'workspace'>>;
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
    const data = readConfig(configFileIn(configDir(env)));
    return Object.entries(data.profiles ?? {}).map(([name, p]) => `${clean(name)}\t${clean(p?.baseUrl)}${name === data.currentProfile ? ' (current)' : ''}`);
  } catch {
    return [];
  }
}

/**
 * Lists ids of a kind through the API (profiles: the config file); throws on any failure (the caller
 * stays silent). Undefined when the line gives nothing to ask about (a form or workspace that is not
 * a numeric id, no default workspace): no request is made, and nothing is cached for it.
 */
export async function fetchLines(s: DynamicDeps, req: ValueRequest): Promise<string[] | undefined> {
  switch (req.kind) {
    case 'profile':
      return profileLines(s.env);
    case 'workspace': {
      const { listWorkspaces } = await import('../api/workspaces.js');
      const list = await listWorkspaces(await s.api());
      return list.map((w) => `${w.id}\t${clean(`${w.icon ? `${w.icon} ` : ''}${w.name}`)}`);
    }
    case 'form': {
      // A workspace on the line that is not an id names none: not the default one's forms instead.
      const ws = req.workspace !== undefined ? safeId(req.workspace) : (await s.context()).workspace;
      if (ws === undefined) return undefined;
      const { listWorkspaceForms } = await import('../api/forms.js');
      const pages = listWorkspaceForms(await s.api(), ws, { all: false });
      const first = await pages.next();
      if (first.done) return [];
      return first.value.items.map((form) => `${form.id}\t${clean(form.title)} (${clean(form.slug)})`);
    }
    case 'webhook': {
      // Only a numeric form id: resolving a slug would cost a second request.
      const formId = req.form === undefined ? undefined : safeId(req.form);
      if (formId === undefined) return undefined;
      const { listWebhooks } = await import('../api/webhooks.js');
      const list = await listWebhooks(await s.api(), formId);
      return list.map((i) => `${i.id}\t${clean(i.status)} ${hostOf(i.data?.webhook_url)}`.trimEnd());
    }
  }
}
