import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { formCreateRun } from '../../../src/commands/form/create.js';
import { formDeleteRun, newFormDeleteCommand } from '../../../src/commands/form/delete.js';
import { formFieldsRun } from '../../../src/commands/form/fields.js';
import { formGetRun } from '../../../src/commands/form/get.js';
import { formListAllRun } from '../../../src/commands/form/list-all.js';
import { formListRun } from '../../../src/commands/form/list.js';
import { CliError } from '../../../src/errors.js';
import type { Factory } from '../../../src/factory.js';
import type { Prompter } from '../../../src/io/prompter.js';
import { json, startStubServer } from '../../helpers/http.js';
import { fakeIO } from '../../helpers/io.js';
import { type TestSandbox, startTestSandbox } from '../../helpers/sandbox.js';
import { tempDir } from './fixtures.js';

let sb: TestSandbox;
let client: ApiClient;
beforeAll(async () => {
  sb = await startTestSandbox({ seed: 2 });
  client = new ApiClient({ baseUrl: sb.url, token: sb.tokens.all, userAgent: 't', timeoutMs: 5000, maxWaitMs: 0 });
});
afterAll(async () => {
  await client.close();
  await sb.close();
});

const api = async () => client;
const now = () => new Date();
const codeOf = (e: unknown) => (e instanceof CliError ? e.exitCode : -1);
let ids = 0;
const newId = () => `field-${++ids}`;
const fail = async (): Promise<never> => {
  throw new Error('no prompts expected');
};
const noPrompter = (): Prompter => ({ input: fail, password: fail, confirm: fail, select: fail, search: fail });

/** A prompter that answers in order and records the questions. */
function scripted(answers: unknown[]): { prompter: Prompter; asked: string[] } {
  const asked: string[] = [];
  const next = async (o: { message: string }) => {
    asked.push(o.message);
    return answers.shift() as never;
  };
  return { asked, prompter: { input: next, password: next, confirm: next, select: next, search: next } as Prompter };
}

describe('form create', () => {
  it('from flags: sends all 14 required attributes with the create defaults; piped prints id and URL', async () => {
    const io = fakeIO();
    await formCreateRun({
      io: io.io,
      api,
      resolveWorkspace: async () => sb.workspaceId,
      prompter: noPrompter,
      newId,
      title: 'Contact',
      field: ['Name', 'Email:email'],
      validate: true,
    });
    const [id, url] = io.out().trimEnd().split('\t');
    expect(url).toMatch(new RegExp(`^${sb.url}/forms/contact-`));
    const js = fakeIO();
    await formGetRun({ io: js.io, api, now, form: id!, json: true });
    const form = JSON.parse(js.out());
    expect(form).toMatchObject({
      title: 'Contact',
      visibility: 'draft',
      language: 'en',
      theme: 'default',
      presentation_style: 'classic',
      width: 'centered',
      size: 'md',
      border_radius: 'small',
      dark_mode: 'auto',
      color: '#3B82F6',
      uppercase_labels: false,
      no_branding: false,
      transparent_background: false,
      workspace_id: sb.workspaceId,
    });
    expect(form.properties).toEqual([
      { id: 'field-1', type: 'text', name: 'Name', required: false },
      { id: 'field-2', type: 'email', name: 'Email', required: false },
    ]);
  });

  it('TTY: ✓ line and share URL; prompts for title, workspace and first field when nothing is given', async () => {
    const { prompter, asked } = scripted(['Survey', sb.workspaceId, 'Your name', 'text']);
    const io = fakeIO({ tty: true, canPrompt: true });
    await formCreateRun({
      io: io.io,
      api,
      resolveWorkspace: async () => {
        throw new (await import('../../../src/errors.js')).UsageError('Missing --workspace.');
      },
      prompter: () => prompter,
      newId,
      validate: true,
    });
    expect(asked).toEqual(['Title', 'Workspace', 'First field name', 'First field type']);
    expect(io.out()).toMatch(/^✓ Created form "Survey" \(id \d+, draft\)\.\n {2}http:\/\/127\.0\.0\.1:\d+\/forms\/survey-[a-z0-9]+\n$/);
  });

  it('TTY: a select first field asks for its options, and the form is created with them', async () => {
    const { prompter, asked } = scripted(['Plans', 'Plan', 'select', 'Free, Pro,, Team']);
    const io = fakeIO({ tty: true, canPrompt: true });
    await formCreateRun({ io: io.io, api, resolveWorkspace: async () => sb.workspaceId, prompter: () => prompter, newId, json: true, validate: true });
    expect(asked).toEqual(['Title', 'First field name', 'First field type', 'Options (comma-separated)']);
    const created = JSON.parse(io.out()) as { id: number };
    const js = fakeIO();
    await formGetRun({ io: js.io, api, now, form: String(created.id), json: true });
    const form = JSON.parse(js.out()) as { properties: Array<Record<string, unknown>> };
    expect(form.properties[0]).toMatchObject({ name: 'Plan', type: 'select', select: { options: ['Free', 'Pro', 'Team'].map((o) => ({ id: o, name: o })) } });
  });

  it('off a terminal a missing title is a usage error naming the flag; local validation runs first', async () => {
    const e = await formCreateRun({ io: fakeIO().io, api, resolveWorkspace: async () => sb.workspaceId, prompter: noPrompter, validate: true }).catch(
      (err) => err,
    );
    expect(codeOf(e)).toBe(2);
    expect([(e as CliError).message, (e as CliError).hint]).toEqual([
      'Missing --title.',
      'Pass --title "<title>" or a --file with a title (prompts are off: not a terminal, CI, or --no-input).',
    ]);
    // On a terminal with CI or --no-input set: the same words, not "run on a terminal".
    const ci = await formCreateRun({
      io: fakeIO({ tty: true, canPrompt: false }).io,
      api,
      resolveWorkspace: async () => sb.workspaceId,
      prompter: noPrompter,
      validate: true,
    }).catch((err) => err);
    expect((ci as CliError).hint).toBe('Pass --title "<title>" or a --file with a title (prompts are off: not a terminal, CI, or --no-input).');
    const bad = await formCreateRun({
      io: fakeIO().io,
      api,
      resolveWorkspace: async () => sb.workspaceId,
      prompter: noPrompter,
      title: 'x',
      language: 'english',
      validate: true,
    }).catch((err) => err);
    expect(codeOf(bad)).toBe(2);
    expect((bad as Error).message).toContain('language: "english" is not a two-letter language code such as en');
  });
});

describe('form get / fields / list / delete against the sandbox', () => {
  it('fields: table on a TTY, TSV piped, every key with --json', async () => {
    const tty = fakeIO({ tty: true });
    await formFieldsRun({ io: tty.io, api, form: String(sb.formId) });
    expect(tty.out().split('\n')[0]).toMatch(/^ID\s+TYPE\s+NAME\s+REQUIRED$/);
    const piped = fakeIO();
    await formFieldsRun({ io: piped.io, api, form: sb.formSlug! });
    expect(piped.out().split('\n')[0]).toMatch(/^[^\t]+\t[^\t]+\t[^\t]+\t(yes|no)$/);
    const js = fakeIO();
    await formFieldsRun({ io: js.io, api, form: String(sb.formId), json: ['id', 'name'] });
    expect(Object.keys(JSON.parse(js.out())[0])).toEqual(['id', 'name']);
  });

  it('list: TSV rows with id, slug, title, visibility, submissions, updated; --json fields; --visibility filters', async () => {
    const piped = fakeIO();
    await formListRun({ io: piped.io, api, resolveWorkspace: async () => sb.workspaceId, now });
    const demo = piped
      .out()
      .split('\n')
      .find((l) => l.startsWith(`${sb.formId}\t`))!;
    expect(demo.split('\t').slice(0, 5)).toEqual([String(sb.formId), sb.formSlug, expect.any(String), 'public', '2']);
    const tty = fakeIO({ tty: true });
    await formListRun({ io: tty.io, api, resolveWorkspace: async () => sb.workspaceId, now });
    const [head, ...rest] = tty.out().trimEnd().split('\n');
    expect(head).toMatch(/^ID\s+SLUG\s+TITLE\s+VISIBILITY\s+SUBMISSIONS\s+UPDATED$/);
    expect(rest.find((l) => l.startsWith(`${sb.formId} `))).toMatch(/\spublic\s+2\s+(just now|\d+ seconds? ago)$/);
    const drafts = fakeIO();
    await formListRun({ io: drafts.io, api, resolveWorkspace: async () => sb.workspaceId, now, visibility: 'draft', json: ['visibility'] });
    const rows = JSON.parse(drafts.out());
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r: { visibility: string }) => r.visibility === 'draft')).toBe(true);
  });

  it('delete: needs --yes off a terminal, backs the definition up, then 404s; --json gives {id, deleted, backup}', async () => {
    const created = fakeIO();
    await formCreateRun({ io: created.io, api, resolveWorkspace: async () => sb.workspaceId, prompter: noPrompter, newId, title: 'Temp', validate: true });
    const id = created.out().split('\t')[0]!;
    const tmp = tempDir();
    try {
      const backupDir = async (n: number) => `${tmp.dir}/${n}`;
      expect(codeOf(await formDeleteRun({ io: fakeIO().io, api, backupDir, prompter: noPrompter, now, form: id }).catch((e) => e))).toBe(2);
      // An unknown --json field is refused as the flag is parsed: the run (and the delete) never starts.
      const run = vi.fn(async () => undefined);
      expect(
        codeOf(
          await newFormDeleteCommand({} as Factory, run)
            .parseAsync([id, '--yes', '--json', 'nope'], { from: 'user' })
            .catch((e) => e),
        ),
      ).toBe(2);
      expect(run).not.toHaveBeenCalled();
      const io = fakeIO();
      await formDeleteRun({ io: io.io, api, backupDir, prompter: noPrompter, now, form: id, yes: true, json: true });
      expect(codeOf(await formGetRun({ io: fakeIO().io, api, now, form: id }).catch((e) => e))).toBe(6);
      const files = (await import('node:fs')).readdirSync(`${tmp.dir}/${id}`);
      expect(files).toHaveLength(1);
      expect(io.out()).toBe(`${JSON.stringify({ id: Number(id), deleted: true, backup: `${tmp.dir}/${id}/${files[0]}` }, null, 2)}\n`);
    } finally {
      tmp.cleanup();
    }
  });
});

describe('form list paging (exact requests)', () => {
  /** 25 forms, Laravel envelope, honouring page/per_page. */
  async function pagedServer() {
    const all = Array.from({ length: 25 }, (_, i) => ({
      id: i + 1,
      slug: `f${i + 1}`,
      title: `F${i + 1}`,
      visibility: i % 2 ? 'draft' : 'public',
      tags: i % 5 === 0 ? ['x'] : [],
    }));
    return startStubServer((req, res) => {
      const u = new URL(req.url, 'http://x');
      if (u.pathname === '/open/forms') return json(res, 200, all);
      const page = Number(u.searchParams.get('page') ?? 1);
      const per = Number(u.searchParams.get('per_page') ?? 10);
      const last = Math.ceil(all.length / per);
      json(res, 200, {
        data: all.slice((page - 1) * per, page * per),
        links: { next: page < last ? 'n' : null },
        meta: { current_page: page, last_page: last, per_page: per, total: all.length },
      });
    });
  }

  it('--limit asks for exactly that many per page and says on stderr that results were cut', async () => {
    const server = await pagedServer();
    const c = new ApiClient({ baseUrl: server.url, token: 't', userAgent: 't', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      const io = fakeIO();
      await formListRun({ io: io.io, api: async () => c, resolveWorkspace: async () => 3, now, limit: 5, json: ['id'] });
      expect(server.requests.map((r) => r.url)).toEqual(['/open/workspaces/3/forms?page=1&per_page=5']);
      expect(JSON.parse(io.out())).toEqual([1, 2, 3, 4, 5].map((id) => ({ id })));
      expect(io.err()).toBe('note: showing the first 5 forms; pass --all or --limit N for more.\n');

      server.requests.length = 0;
      const all = fakeIO();
      await formListRun({ io: all.io, api: async () => c, resolveWorkspace: async () => 3, now, all: true, tag: 'x', json: ['id'] });
      expect(server.requests.map((r) => r.url)).toEqual(['/open/workspaces/3/forms?page=1&per_page=100']);
      expect(JSON.parse(all.out())).toEqual([1, 6, 11, 16, 21].map((id) => ({ id })));
      expect(all.err()).toBe('');

      server.requests.length = 0;
      const paged = fakeIO();
      await formListRun({ io: paged.io, api: async () => c, resolveWorkspace: async () => 3, now, page: 2, limit: 10, ndjson: true });
      expect(server.requests.map((r) => r.url)).toEqual(['/open/workspaces/3/forms?page=2&per_page=10']);
      expect(
        paged
          .out()
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l).id),
      ).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
      expect(paged.err()).toBe('note: showing forms 11–20 of 25; pass --page 3 for the next page, or --all for every form.\n');

      // The UX review's case: page 2 of 2-form pages shows forms 3–4, not "the first 2".
      const small = fakeIO();
      await formListRun({ io: small.io, api: async () => c, resolveWorkspace: async () => 3, now, page: 2, limit: 2, json: ['id'] });
      expect(JSON.parse(small.out())).toEqual([{ id: 3 }, { id: 4 }]);
      expect(small.err()).toBe('note: showing forms 3–4 of 25; pass --page 3 for the next page, or --all for every form.\n');
      const filteredPage = fakeIO();
      await formListRun({
        io: filteredPage.io,
        api: async () => c,
        resolveWorkspace: async () => 3,
        now,
        page: 2,
        limit: 2,
        visibility: 'public',
        json: ['id'],
      });
      expect(JSON.parse(filteredPage.out())).toEqual([{ id: 3 }]);
      expect(filteredPage.err()).toBe('note: showing 1 form that matches among forms 3–4 of 25; pass --page 3 for the next page, or --all for every form.\n');
      const filteredFirst = fakeIO();
      await formListRun({ io: filteredFirst.io, api: async () => c, resolveWorkspace: async () => 3, now, limit: 2, visibility: 'draft', json: ['id'] });
      expect(JSON.parse(filteredFirst.out())).toEqual([{ id: 2 }, { id: 4 }]);
      expect(filteredFirst.err()).toBe('note: showing the first 2 forms that match; pass --all or --limit N for more.\n');

      expect(
        codeOf(await formListRun({ io: fakeIO().io, api: async () => c, resolveWorkspace: async () => 3, now, all: true, limit: 3 }).catch((e) => e)),
      ).toBe(2);

      // --page is a page of the default 30 for a program too, while without --page a program gets every form.
      server.requests.length = 0;
      await formListRun({ io: fakeIO().io, api: async () => c, resolveWorkspace: async () => 3, now, page: 1, json: ['id'] });
      await formListRun({ io: fakeIO().io, api: async () => c, resolveWorkspace: async () => 3, now, json: ['id'] });
      await formListRun({ io: fakeIO().io, api: async () => c, resolveWorkspace: async () => 3, now });
      expect(server.requests.map((r) => r.url)).toEqual([
        '/open/workspaces/3/forms?page=1&per_page=30',
        '/open/workspaces/3/forms?page=1&per_page=100',
        '/open/workspaces/3/forms?page=1&per_page=30',
      ]);
      expect(codeOf(await formListRun({ io: fakeIO().io, api: async () => c, resolveWorkspace: async () => 3, now, all: true, page: 2 }).catch((e) => e))).toBe(
        2,
      );

      const dep = fakeIO();
      await formListAllRun({ io: dep.io, api: async () => c, now, json: ['id'] });
      expect(JSON.parse(dep.out())).toHaveLength(25);
      expect(dep.err()).toBe('note: GET /open/forms is deprecated by the service; prefer `formctl form list -w <workspace> --all`.\n');
    } finally {
      await c.close();
      await server.close();
    }
  });

  it('--all follows every page', async () => {
    const server = await pagedServer();
    const c = new ApiClient({ baseUrl: server.url, token: 't', userAgent: 't', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      const io = fakeIO();
      await formListRun({ io: io.io, api: async () => c, resolveWorkspace: async () => 3, now, all: true });
      expect(io.out().trimEnd().split('\n')).toHaveLength(25);
      expect(server.requests).toHaveLength(1);
    } finally {
      await c.close();
      await server.close();
    }
  });
});

describe('form list --all while a form is updated between pages (reviewer defect 8)', () => {
  it('gives each form once, the updated one included: repeats are dropped and the list is read again for the one missed', async () => {
    // 150 forms, newest update first, as the service orders them; form 30 (on page 2) is updated
    // just before page 2 is read, so it moves to the top of page 1 and the rest shifts down.
    let order = Array.from({ length: 150 }, (_, i) => 150 - i);
    let moved = false;
    const server = await startStubServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      const page = Number(u.searchParams.get('page') ?? 1);
      const per = Number(u.searchParams.get('per_page') ?? 10);
      if (page === 2 && !moved) {
        moved = true;
        order = [30, ...order.filter((id) => id !== 30)];
      }
      const last = Math.ceil(order.length / per);
      json(res, 200, {
        data: order.slice((page - 1) * per, page * per).map((id) => ({ id, slug: `f-${id}`, title: `Form ${id}`, visibility: 'public' })),
        links: { next: page < last ? 'n' : null },
        meta: { current_page: page, last_page: last, per_page: per, total: order.length },
      });
    });
    const c = new ApiClient({ baseUrl: server.url, token: 't', userAgent: 't', timeoutMs: 5000, maxWaitMs: 0 });
    try {
      const io = fakeIO();
      await formListRun({ io: io.io, api: async () => c, resolveWorkspace: async () => 3, now, all: true, json: ['id'] });
      const ids = (JSON.parse(io.out()) as { id: number }[]).map((r) => r.id);
      expect(ids).toHaveLength(150);
      expect(new Set(ids).size).toBe(150);
      expect(ids).toContain(30);
      expect(server.requests.map((r) => r.url)).toEqual([
        '/open/workspaces/3/forms?page=1&per_page=100',
        '/open/workspaces/3/forms?page=2&per_page=100',
        '/open/workspaces/3/forms?page=1&per_page=100',
      ]);
    } finally {
      await c.close();
      await server.close();
    }
  });
});
