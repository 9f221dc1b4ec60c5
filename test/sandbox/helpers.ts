// Shared helpers for the sandbox tests: start a sandbox on port 0 and call it over real HTTP.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { SandboxHandle, SandboxOptions } from '../../src/sandbox/index.js';
import { formBody } from '../helpers/form-body.js';

export { DEPLOYED_STYLE, deployedFormBody, formBody } from '../helpers/form-body.js';

export interface Res {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

const open: SandboxHandle[] = [];
const dirs: string[] = [];
// Sandboxes close (and flush their data files) before their temp directories go.
afterEach(async () => {
  await Promise.all(open.splice(0).map((sb) => sb.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A temporary directory removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'formctl-sandbox-'));
  dirs.push(dir);
  return dir;
}

/** Starts a sandbox (rate limit off unless asked) that is closed after the test. */
export async function boot(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const sb = await startSandbox({ port: 0, rateLimit: 0, ...options });
  open.push(sb);
  return sb;
}

/** One HTTP request; `token: null` sends no Authorization header. */
export async function call(sb: SandboxHandle, method: string, path: string, body?: unknown, token: string | null = sb.tokens.all): Promise<Res> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${sb.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Creates a form through the API and returns it. */
export async function createForm(sb: SandboxHandle, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await call(sb, 'POST', '/open/forms', formBody(sb.workspaceId, extra));
  if (res.status !== 201) throw new Error(`createForm: ${res.status} ${res.text}`);
  return res.json;
}

/** Posts a public answer and returns the response. */
export function answer(sb: SandboxHandle, slug: string, values: Record<string, unknown>): Promise<Res> {
  return call(sb, 'POST', `/forms/${slug}/answer`, values, null);
}

/** A second user (member of the seeded workspace with `role`) and a token with every ability. */
export async function memberToken(sb: SandboxHandle, email: string, role: 'admin' | 'user' | 'readonly'): Promise<string> {
  sb.admin.createUser({ email });
  const res = await call(sb, 'POST', `/open/workspaces/${sb.workspaceId}/users/add`, { email, role });
  if (res.status !== 200) throw new Error(`memberToken: ${res.status} ${res.text}`);
  return sb.admin.createToken(email, [
    'workspaces-read',
    'workspaces-write',
    'workspace-users-read',
    'workspace-users-write',
    'forms-read',
    'forms-write',
    'manage-integrations',
    'submissions-write',
  ]);
}
