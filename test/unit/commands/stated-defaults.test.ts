// A default a flag's help states ("(default 4)") and the value the command then uses are one fact:
// where Commander's own .default() cannot hold it (the command must see whether the flag was given),
// both read the same constant. This checks that what the help says is what runs.
import { describe, expect, it } from 'vitest';
import { newSubmissionUpdateCommand } from '../../../src/commands/submission/update.js';
import { newWebhookListenCommand } from '../../../src/commands/webhook/listen.js';
import type { Factory } from '../../../src/factory.js';

const factory = { io: {}, api: async () => ({}), signal: new AbortController().signal, now: () => new Date(0), prompter: () => ({}) } as unknown as Factory;

/** The "(default X)" a flag's help line states. */
function statedDefault(help: string, flag: string): string {
  const line = help.split('\n').find((l) => l.trimStart().startsWith(flag));
  const m = /\(default ([^)]+)\)/.exec(help.slice(help.indexOf(line!)));
  return m![1]!;
}

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
