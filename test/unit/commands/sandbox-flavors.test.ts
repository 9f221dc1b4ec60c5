// `formctl sandbox --flavor` offers exactly the flavours the sandbox knows (src/service/flavors.ts),
// with the spec as the default: the list is written once.
import { describe, expect, it } from 'vitest';
import newSandboxCommand, { type SandboxRunOptions } from '../../../src/commands/sandbox/index.js';
import type { Factory } from '../../../src/factory.js';
import { FLAVORS } from '../../../src/service/flavors.js';
import { FLAVORS as SANDBOX_FLAVORS } from '../../../src/sandbox/index.js';

/** The flavor the command hands its run function for these arguments. */
async function parsedFlavor(args: string[]): Promise<string> {
  let seen: SandboxRunOptions | undefined;
  const cmd = newSandboxCommand({} as Factory, async (o) => {
    seen = o;
  });
  cmd.exitOverride().configureOutput({ writeErr: () => {} });
  await cmd.parseAsync(args, { from: 'user' });
  return seen!.flavor;
}

describe('sandbox --flavor', () => {
  it('offers the flavours the sandbox exports, the spec by default', () => {
    expect(SANDBOX_FLAVORS).toBe(FLAVORS);
    const option = newSandboxCommand({} as Factory).options.find((o) => o.long === '--flavor')!;
    expect(option.argChoices).toEqual([...FLAVORS]);
    expect(option.defaultValue).toBe('spec');
  });

  it.each(FLAVORS)('passes %s through', async (flavor) => {
    expect(await parsedFlavor(['--flavor', flavor])).toBe(flavor);
  });

  it('defaults to spec and refuses any other name', async () => {
    expect(await parsedFlavor([])).toBe('spec');
    await expect(parsedFlavor(['--flavor', 'staging'])).rejects.toMatchObject({ code: 'commander.invalidArgument' });
  });
});
