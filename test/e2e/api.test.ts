import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let home: ReturnType<typeof tempHome>;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  sb = await startTestSandbox({ seed: 3 });
  home = tempHome();
  env = { ...home.env, ...sb.env };
});
afterAll(async () => {
  await sb.close();
  home.cleanup();
});

describe('formctl api', () => {
  it('GET prints compact JSON when piped', async () => {
    const r = await runFormctl(['api', '/open/workspaces'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout.endsWith('\n')).toBe(true);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout).map((w: { id: number }) => w.id)).toEqual([sb.workspaceId]);
  });

  it('-f fields POST a JSON body; the workspace shows up afterwards', async () => {
    const r = await runFormctl(['api', 'open/workspaces/create', '-f', 'name=From api', '-f', 'emoji=🧰'], { env });
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.workspace).toMatchObject({ name: 'From api', icon: '🧰' });
    const list = await runFormctl(['workspace', 'list', '--json', 'name'], { env });
    expect(JSON.parse(list.stdout)).toContainEqual({ name: 'From api' });
  });

  it('--paginate merges the pages of the form list', async () => {
    const r = await runFormctl(['api', `/open/workspaces/${sb.workspaceId}/forms`, '--paginate'], { env });
    expect(r.code).toBe(0);
    const forms = JSON.parse(r.stdout);
    expect(Array.isArray(forms)).toBe(true);
    expect(forms.map((f: { id: number }) => f.id)).toEqual([sb.formId]);
  });

  it('validation errors exit 7 and print the error body on stdout', async () => {
    const r = await runFormctl(['api', '/open/workspaces/create', '-X', 'POST', '-F', 'name=null'], { env });
    expect(r.code).toBe(7);
    expect(JSON.parse(r.stdout).errors).toHaveProperty('name');
    expect(r.stderr.split('\n')[0]).toMatch(/^error: .+ \(HTTP 422, POST \/open\/workspaces\/create\)$/);
  });

  it('a missing token exits 4 before any request', async () => {
    const r = await runFormctl(['api', '/open/workspaces'], { env: { ...home.env, FORMCTL_BASE_URL: sb.url } });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
  });
});
