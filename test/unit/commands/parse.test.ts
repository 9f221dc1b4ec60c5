// How a command's argv becomes its run function's options, checked through the `runF` seam each
// command offers (`new<Group><Verb>Command(f, runF)`): a spy run function records what the action
// hands it, so the parsing (parsers, defaults, the action's own work) is tested without a service.
// The run functions themselves are tested by calling them with options (docs/contributing.md).
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it, vi } from 'vitest';
import { createFactory } from '../../../src/factory.js';
import newSandboxCommand from '../../../src/commands/sandbox/index.js';
import { newFormListCommand } from '../../../src/commands/form/list.js';
import { newFormUpdateCommand } from '../../../src/commands/form/update.js';
import { newMemberAddCommand } from '../../../src/commands/member/add.js';
import { newSubmissionDeleteCommand } from '../../../src/commands/submission/delete.js';
import { newSubmissionExportCommand } from '../../../src/commands/submission/export.js';
import { newSubmissionListCommand } from '../../../src/commands/submission/list.js';
import { newSubmissionUpdateCommand } from '../../../src/commands/submission/update.js';
import { newWebhookCreateCommand } from '../../../src/commands/webhook/create.js';
import { newWorkspaceListCommand } from '../../../src/commands/workspace/list.js';
import { UsageError } from '../../../src/errors.js';
import { fakeIO } from '../../helpers/io.js';

function factory() {
  return createFactory({
    io: fakeIO().io,
    env: {},
    signal: new AbortController().signal,
    globals: { debug: false, timeoutMs: 5_000, maxWaitMs: 0, noInput: true, noColor: true },
    // Parsing must not reach the service.
    api: () => Promise.reject(new Error('the action called the API')),
  });
}

type Spy = ReturnType<typeof vi.fn<(o: unknown) => Promise<void>>>;

/** Parses argv with the command `build` makes around the spy; returns the one options object it was handed. */
async function parsed(build: (spy: Spy) => CommandUnknownOpts, argv: string[]): Promise<Record<string, unknown>> {
  const spy: Spy = vi.fn(async () => undefined);
  const cmd = build(spy).exitOverride();
  await cmd.parseAsync(argv, { from: 'user' });
  expect(spy).toHaveBeenCalledTimes(1);
  return spy.mock.calls[0]![0] as Record<string, unknown>;
}

const f = factory();

describe('argv → run options, through the runF seam', () => {
  const cases: Array<[string, (spy: Spy) => CommandUnknownOpts, string[], Record<string, unknown>]> = [
    [
      'form update: the form argument, a choice, a repeatable --set, --no-validate',
      (spy) => newFormUpdateCommand(f, spy),
      ['contact-us', '--title', 'Hi', '--visibility', 'draft', '--set', 'a=1', '--set', 'b.c=x', '--dry-run', '--no-validate'],
      {
        form: 'contact-us',
        title: 'Hi',
        visibility: 'draft',
        set: [
          ['a', '1'],
          ['b.c', 'x'],
        ],
        dryRun: true,
        validate: false,
      },
    ],
    [
      'form list: -w and --limit parse to numbers',
      (spy) => newFormListCommand(f, spy),
      ['-w', '3', '-L', '5', '--page', '2', '--tag', 'x'],
      { workspace: 3, limit: 5, page: 2, tag: 'x' },
    ],
    [
      'submission list: a numeric form argument stays the text given; --status is a choice',
      (spy) => newSubmissionListCommand(f, spy),
      ['42', '--status', 'partial', '--search', 'ada', '--all'],
      { form: '42', status: 'partial', search: 'ada', all: true },
    ],
    [
      'submission update: one submission (its id as given) with --set pairs',
      (spy) => newSubmissionUpdateCommand(f, spy),
      ['42', '118', '--set', 'Name=Ada Lovelace', '--set', 'rating=5', '--dry-run'],
      {
        form: '42',
        submissionId: '118',
        set: [
          ['Name', 'Ada Lovelace'],
          ['rating', '5'],
        ],
        dryRun: true,
      },
    ],
    [
      'submission export: seconds parse to milliseconds; the defaults are filled',
      (spy) => newSubmissionExportCommand(f, spy),
      ['42', '-o', 'out.csv', '--poll-interval', '0.5', '--columns', 'a,created_at'],
      { form: '42', output: 'out.csv', pollInterval: 500, waitTimeout: 900_000, columns: ['a', 'created_at'] },
    ],
    [
      'webhook create: repeatable headers, --inactive',
      (spy) => newWebhookCreateCommand(f, spy),
      ['42', '--url', 'https://hooks.example.com/in', '--header', 'X-A: 1', '--header', 'X-B:2', '--inactive'],
      {
        form: '42',
        url: 'https://hooks.example.com/in',
        header: [
          ['X-A', '1'],
          ['X-B', '2'],
        ],
        inactive: true,
      },
    ],
    [
      'member add: the email argument, a role choice, -w',
      (spy) => newMemberAddCommand(f, spy),
      ['ada@example.com', '--role', 'readonly', '-w', '7'],
      { email: 'ada@example.com', role: 'readonly', workspace: 7 },
    ],
    ['workspace list: --limit', (spy) => newWorkspaceListCommand(f, spy), ['--limit', '2'], { limit: 2 }],
    [
      'sandbox: --port 0 and the flavour; --user repeats',
      (spy) => newSandboxCommand(f, spy),
      ['--port', '0', '--flavor', 'deployed', '--user', 'a@example.com', '--user', 'b@example.com', '--rate-limit', '0'],
      { port: 0, flavor: 'deployed', user: ['a@example.com', 'b@example.com'], rateLimit: 0 },
    ],
  ];
  for (const [name, build, argv, expected] of cases) {
    it(name, async () => {
      expect(await parsed(build, argv)).toMatchObject(expected);
    });
  }

  it('submission update --from goes to the bulk run with the default concurrency, not to the single update', async () => {
    const single = vi.fn(async () => undefined);
    const bulk = vi.fn(async () => undefined);
    await newSubmissionUpdateCommand(f, single, bulk)
      .exitOverride()
      .parseAsync(['42', '--from', 'fixes.ndjson', '--rate-limit', '50', '--results', 'r.ndjson', '--resume', '--yes'], { from: 'user' });
    expect(single).not.toHaveBeenCalled();
    expect(bulk).toHaveBeenCalledTimes(1);
    expect((bulk.mock.calls[0] as unknown[])[0]).toMatchObject({
      form: '42',
      from: 'fixes.ndjson',
      concurrency: 4,
      rateLimit: 50,
      results: 'r.ndjson',
      resume: true,
      yes: true,
    });
  });

  it("submission delete --json: one submission takes its own fields, a bulk run its own; each refuses the other's (exit 2, nothing run)", async () => {
    const single = vi.fn(async () => undefined);
    const bulk = vi.fn(async () => undefined);
    const run = (argv: string[]) =>
      newSubmissionDeleteCommand(f, single, bulk)
        .exitOverride()
        .parseAsync(argv, { from: 'user' })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
    expect(await run(['42', '118', '--yes', '--json', 'id,deleted,form_id,submission_id'])).toBeUndefined();
    expect((single.mock.calls[0] as unknown[])[0]).toMatchObject({ form: '42', submissionId: '118', json: ['id', 'deleted', 'form_id', 'submission_id'] });
    const wrongForOne = await run(['42', '118', '--yes', '--json', 'selected']);
    expect(wrongForOne).toBeInstanceOf(UsageError);
    expect((wrongForOne as UsageError).message).toBe('Unknown JSON field: selected.');
    expect((wrongForOne as UsageError).hint).toBe('Available fields: id, deleted, form_id, submission_id');
    const wrongForBulk = await run(['42', '--before', '30d', '--json', 'submission_id']);
    expect(wrongForBulk).toBeInstanceOf(UsageError);
    expect((wrongForBulk as UsageError).hint).toBe('Available fields: form_id, selected, deleted, gone, failed, backup, results, dry_run, ids');
    // --rate-limit paces a bulk run only: on one submission it is refused, and a bulk run gets it as a number.
    const rateForOne = await run(['42', '118', '--yes', '--rate-limit', '600']);
    expect(rateForOne).toBeInstanceOf(UsageError);
    expect((rateForOne as UsageError).message).toBe('--rate-limit is for bulk deletes: add --from, --before or --where.');
    expect(await run(['42', '--before', '30d', '--yes', '--rate-limit', '600'])).toBeUndefined();
    expect((bulk.mock.calls[0] as unknown[])[0]).toMatchObject({ form: '42', rateLimit: 600 });
    expect(single).toHaveBeenCalledTimes(1);
    expect(bulk).toHaveBeenCalledTimes(1);
  });

  it('a value its parser refuses is a usage error, and the run function is never called', async () => {
    for (const [build, argv] of [
      [(spy: Spy) => newSubmissionUpdateCommand(f, spy, spy), ['42', '--from', 'x.ndjson', '--concurrency', '0']],
      [(spy: Spy) => newFormListCommand(f, spy), ['--limit', 'many']],
      [(spy: Spy) => newSubmissionExportCommand(f, spy), ['42', '--wait-timeout', '0.5']],
    ] as const) {
      const spy: Spy = vi.fn(async () => undefined);
      const err: unknown = await build(spy)
        .exitOverride()
        .parseAsync([...argv], { from: 'user' })
        .catch((e: unknown) => e);
      expect(err, argv.join(' ')).toBeInstanceOf(UsageError);
      expect(spy).not.toHaveBeenCalled();
    }
  });
});
