import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForbiddenError } from '../../../src/api/errors.js';
import { UsageError } from '../../../src/errors.js';
import { type Factory, createFactory } from '../../../src/factory.js';
import { pickForm, pickIntegration, pickWorkspace, resolveFormArg, resolveIntegrationArg } from '../../../src/commands/pickers.js';
import type { Choice, Prompter } from '../../../src/io/prompter.js';
import { tempHome } from '../../helpers/cli.js';
import { type StubServer, json, startStubServer } from '../../helpers/http.js';
import { fakeIO } from '../../helpers/io.js';

let stub: StubServer;
let home: ReturnType<typeof tempHome>;
const factories: Factory[] = [];
/** When set, GET /open/workspaces answers 403 as for a token without workspaces-read. */
let forbidWorkspaces = false;

beforeEach(async () => {
  home = tempHome();
  forbidWorkspaces = false;
  stub = await startStubServer((req, res) => {
    if (req.url === '/open/workspaces' && forbidWorkspaces) return json(res, 403, { message: 'This action requires the workspaces-read ability.' });
    if (req.url === '/open/workspaces')
      return json(res, 200, [
        { id: 1, name: 'Acme', icon: '🚀' },
        { id: 12, name: 'Side project' },
      ]);
    if (req.url?.startsWith('/open/workspaces/12/forms'))
      return json(res, 200, { data: [{ id: 5, slug: 'contact-x1', title: 'Contact', visibility: 'public' }], meta: { current_page: 1, last_page: 1 } });
    if (req.url?.startsWith('/open/workspaces/1/forms')) return json(res, 200, { data: [], meta: { current_page: 1, last_page: 1 } });
    if (req.url === '/open/forms/contact-x1') return json(res, 200, { id: 5, slug: 'contact-x1', title: 'Contact', visibility: 'public' });
    if (req.url === '/open/forms/5/integrations') {
      return json(res, 200, [
        { id: 9, form_id: 5, integration_id: 'webhook', status: 'active', data: { webhook_url: 'https://hooks.example.com/in?key=SECRET' } },
      ]);
    }
    return json(res, 404, { message: 'Not found' });
  });
});
afterEach(async () => {
  await Promise.all(factories.splice(0).map((f) => f.dispose()));
  await stub.close();
  home.cleanup();
});

/** A factory on a fake terminal whose prompter records the search it was asked and answers with `answer`. */
function setup(o: { canPrompt: boolean; answer?: (choices: Choice<unknown>[]) => unknown }) {
  const searches: Array<{ message: string; flag: string; choices: Choice<unknown>[] }> = [];
  const prompter = {
    async search(s: { message: string; flag: string; choices: Choice<unknown>[] }) {
      searches.push(s);
      return o.answer ? o.answer(s.choices) : s.choices[0]!.value;
    },
  } as unknown as Prompter;
  const io = fakeIO({ tty: true, canPrompt: o.canPrompt });
  const f = createFactory({
    io: io.io,
    env: { ...home.env, FORMCTL_BASE_URL: stub.url, FORMCTL_TOKEN: 'fsk_test' },
    signal: new AbortController().signal,
    globals: { debug: false, timeoutMs: 5_000, maxWaitMs: 0, noInput: false, noColor: true },
    prompter,
    pickWorkspace,
  });
  factories.push(f);
  return { f, searches };
}

describe('pickers on a terminal', () => {
  it('pickWorkspace offers the workspaces and returns the chosen id', async () => {
    const { f, searches } = setup({ canPrompt: true, answer: (c) => c[1]!.value });
    expect(await pickWorkspace(f)).toBe(12);
    expect(searches).toEqual([
      {
        message: 'Workspace (type to search)',
        flag: '--workspace',
        choices: [
          { name: '🚀 Acme', value: 1, description: 'id 1' },
          { name: 'Side project', value: 12, description: 'id 12' },
        ],
      },
    ]);
  });

  it("pickForm lists the workspace's forms", async () => {
    const { f, searches } = setup({ canPrompt: true });
    expect(await pickForm(f, 12)).toBe(5);
    expect(searches[0]!.choices).toEqual([{ name: 'Contact', value: 5, description: 'id 5 · contact-x1 · public' }]);
  });

  it('pickIntegration shows the URL without its query', async () => {
    const { f, searches } = setup({ canPrompt: true });
    expect(await pickIntegration(f, 5)).toBe(9);
    expect(searches[0]!.choices).toEqual([{ name: 'hooks.example.com/in', value: 9, description: 'id 9 · active' }]);
  });

  it('an empty list is a usage error with the command that creates one, not an empty prompt', async () => {
    const { f, searches } = setup({ canPrompt: true });
    await expect(pickForm(f, 1)).rejects.toMatchObject({ message: 'Workspace 1 has no forms.', exitCode: 2 });
    expect(searches).toEqual([]);
  });

  it('a token that cannot list workspaces gets exit 5 with the way round the picker: --workspace or FORMCTL_WORKSPACE', async () => {
    forbidWorkspaces = true;
    const { f, searches } = setup({ canPrompt: true });
    const err = await f.workspace().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForbiddenError);
    expect(err).toMatchObject({
      exitCode: 5,
      message: 'This action requires the workspaces-read ability. (HTTP 403, GET /open/workspaces)',
      hint: 'This token cannot list workspaces to pick from (that needs `workspaces-read`). Pass --workspace <id>, or set FORMCTL_WORKSPACE=<id>; `formctl workspace use` needs the same ability.',
    });
    expect(searches).toEqual([]);
    await expect(pickWorkspace(f, '--in-workspace')).rejects.toMatchObject({ hint: expect.stringContaining('Pass --in-workspace <id>,') });
  });

  it('Factory.workspace() picks when there is no flag and no default', async () => {
    const { f } = setup({ canPrompt: true, answer: (c) => c[0]!.value });
    expect(await f.workspace()).toBe(1);
    expect(await f.workspace(7)).toBe(7);
  });

  it('a Factory built without a picker (main.ts hands one in) does not prompt: a missing workspace is a usage error', async () => {
    const io = fakeIO({ tty: true, canPrompt: true });
    const f = createFactory({
      io: io.io,
      env: { ...home.env, FORMCTL_BASE_URL: stub.url, FORMCTL_TOKEN: 'fsk_test' },
      signal: new AbortController().signal,
      globals: { debug: false, timeoutMs: 5_000, maxWaitMs: 0, noInput: false, noColor: true },
    });
    factories.push(f);
    await expect(f.workspace()).rejects.toMatchObject({ message: 'Missing --workspace.', exitCode: 2 });
    expect(stub.requests).toEqual([]);
  });
});

describe('resolveFormArg and resolveIntegrationArg', () => {
  it('pass a given argument through without asking or sending anything', async () => {
    for (const canPrompt of [true, false]) {
      const { f, searches } = setup({ canPrompt });
      expect(await resolveFormArg(f, 'contact-x1')).toBe('contact-x1');
      expect(await resolveIntegrationArg(f, 'contact-x1', 9)).toBe(9);
      expect(searches).toEqual([]);
    }
    expect(stub.requests).toEqual([]);
  });

  it('on a terminal pick the form in the workspace, then an integration of the form (a slug looked up first)', async () => {
    const { f, searches } = setup({ canPrompt: true });
    expect(await resolveFormArg(f, undefined, 12)).toBe('5');
    expect(await resolveIntegrationArg(f, 'contact-x1', undefined)).toBe(9);
    expect(searches.map((s) => [s.message, s.flag])).toEqual([
      ['Form (type to search)', '<form>'],
      ['Webhook (type to search)', '<id>'],
    ]);
    expect(stub.requests.map((r) => r.url)).toEqual(['/open/workspaces/12/forms?page=1', '/open/forms/contact-x1', '/open/forms/5/integrations']);
  });

  it('without a terminal name the argument before resolving a workspace or sending a request', async () => {
    const { f } = setup({ canPrompt: false });
    await expect(resolveFormArg(f, undefined)).rejects.toMatchObject({
      message: 'Missing <form> argument.',
      hint: 'Pass the form id or slug as <form> (prompts are off: not a terminal, CI, or --no-input). See `formctl form list`.',
      exitCode: 2,
    });
    await expect(resolveIntegrationArg(f, 'contact-x1', undefined)).rejects.toMatchObject({
      message: 'Missing <id> argument.',
      hint: 'Pass the webhook id as <id> (prompts are off: not a terminal, CI, or --no-input). See `formctl webhook list contact-x1`.',
      exitCode: 2,
    });
    expect(stub.requests).toEqual([]);
  });
});

describe('pickers without a terminal', () => {
  it('fail at once, before any request, naming the flag or argument', async () => {
    const { f, searches } = setup({ canPrompt: false });
    const cases: Array<[Promise<number>, string, string]> = [
      [
        pickWorkspace(f),
        'Missing --workspace.',
        'Pass --workspace <id> (prompts are off: not a terminal, CI, or --no-input). Or set a default: formctl config set workspace <id> (see formctl workspace list).',
      ],
      [
        pickForm(f, 12),
        'Missing <form> argument.',
        'Pass the form id or slug as <form> (prompts are off: not a terminal, CI, or --no-input). See `formctl form list -w 12`.',
      ],
      [
        pickIntegration(f, 5, '<webhook>'),
        'Missing <webhook> argument.',
        'Pass the webhook id as <webhook> (prompts are off: not a terminal, CI, or --no-input). See `formctl webhook list 5`.',
      ],
      [
        f.workspace(),
        'Missing --workspace.',
        'Pass --workspace <id> (prompts are off: not a terminal, CI, or --no-input). Or set a default: formctl config set workspace <id> (see formctl workspace list).',
      ],
    ];
    for (const [p, message, hint] of cases) {
      const err = await p.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect(err).toMatchObject({ message, hint });
    }
    expect(stub.requests).toEqual([]);
    expect(searches).toEqual([]);
  });

  it('--no-input wins over a terminal', async () => {
    const { f } = setup({ canPrompt: true });
    f.globals.noInput = true;
    await expect(pickWorkspace(f)).rejects.toMatchObject({ message: 'Missing --workspace.' });
    expect(stub.requests).toEqual([]);
  });
});
