// A default a flag's help states ("(default 4)") and the value the command then uses are one fact:
// where Commander's own .default() cannot hold it (the command must see whether the flag was given),
// both read the same constant. This checks that what the help says is what runs.
import type { Option } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { newSubmissionUpdateCommand } from '../../../src/commands/submission/update.js';
import { DEFAULT_LISTEN_PORT, newWebhookListenCommand } from '../../../src/commands/webhook/listen.js';
import type { Factory } from '../../../src/factory.js';
import { fullProgram } from '../completion/full-program.js';

const factory = { io: {}, api: async () => ({}), signal: new AbortController().signal, now: () => new Date(0), prompter: () => ({}) } as unknown as Factory;

/** The "(default X)" a flag's help line states, or Commander's "(default: X)" (a string JSON-quoted). */
function statedDefault(help: string, flag: string): string {
  const line = help.split('\n').find((l) => l.trimStart().startsWith(flag));
  const m = /\(default(:?) ([^)]+)\)/.exec(help.slice(help.indexOf(line!)));
  return m![1] && m![2]!.startsWith('"') ? String(JSON.parse(m![2]!)) : m![2]!;
}

type Tree = { name(): string; commands: readonly Tree[]; options: readonly Option[] };
const commandsOf = (c: Tree, path: string[] = []): [string, Tree][] => [[path.join(' '), c], ...c.commands.flatMap((s) => commandsOf(s, [...path, s.name()]))];

/**
 * Flags whose help states a single default by hand, "(default X)", and why Commander cannot state it
 * ("(default: X)" from .default()): every other stated default is Commander's.
 */
const STATED_BY_HAND: Record<string, string> = {
  'submission update --concurrency': 'the command must see whether it was given (bulk only)',
  'webhook listen --host': 'Commander would quote the address (docs/architecture.md, "Adding a flag")',
};

describe('defaults stated in help are the ones applied', () => {
  it('webhook listen --port and --host', async () => {
    let got: { port: number; host: string } | undefined;
    const cmd = newWebhookListenCommand(factory, async (o) => {
      got = o;
    });
    await cmd.parseAsync([], { from: 'user' });
    const help = cmd.helpInformation();
    expect(String(got!.port)).toBe(statedDefault(help, '--port'));
    expect(got!.host).toBe(statedDefault(help, '--host'));
  });

  it('webhook listen --port: Commander states the default, from the constant the listener uses', () => {
    const port = newWebhookListenCommand(factory).options.find((o) => o.long === '--port')!;
    expect(port.defaultValue).toBe(DEFAULT_LISTEN_PORT);
    expect(port.description).not.toMatch(/default/);
  });

  it('states a single default by hand only where Commander cannot (a short list, each with its reason)', async () => {
    const { program } = await fullProgram();
    const byHand = commandsOf(program as unknown as Tree).flatMap(([path, cmd]) =>
      cmd.options.filter((o) => /\(default [^\s:)]+\)/.test(o.description)).map((o) => `${path} ${o.long}`),
    );
    expect(byHand.sort()).toEqual(Object.keys(STATED_BY_HAND).sort());
  });

  it('submission update --from … --concurrency', async () => {
    let got: { concurrency: number } | undefined;
    const cmd = newSubmissionUpdateCommand(
      factory,
      async () => undefined,
      async (o) => {
        got = o;
      },
    );
    await cmd.parseAsync(['42', '--from', 'changes.ndjson'], { from: 'user' });
    expect(String(got!.concurrency)).toBe(statedDefault(cmd.helpInformation(), '--concurrency'));
  });
});
