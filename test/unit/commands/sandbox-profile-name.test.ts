// `formctl sandbox --profile-name NAME` saves a profile: its name follows the one rule every profile
// name follows (--profile, FORMCTL_PROFILE, auth login; src/config/store.ts checkProfileName), so a
// name the sandbox takes can be used everywhere else, and a name usable elsewhere is not refused here.
import { describe, expect, it } from 'vitest';
import { type SandboxRunOptions, sandboxRun } from '../../../src/commands/sandbox/index.js';
import { UsageError } from '../../../src/errors.js';
import { fakeIO } from '../../helpers/io.js';
import { fakeSandboxHandle } from '../../helpers/sandbox.js';

/** Runs the command with a fake sandbox (already asked to stop) and a fake config; what was started and saved. */
async function run(profileName: string, profiles: Record<string, { baseUrl: string; sandbox?: boolean }> = {}): Promise<{ started: boolean; saved: string[] }> {
  const controller = new AbortController();
  controller.abort();
  let started = false;
  const saved: string[] = [];
  const store = {
    profile: (name: string) => (Object.hasOwn(profiles, name) ? profiles[name] : undefined),
    isSaved: (name: string) => Object.hasOwn(profiles, name),
    saveProfile: (name: string) => (saved.push(name), Promise.resolve()),
  };
  await sandboxRun({
    flavor: 'spec',
    host: '127.0.0.1',
    port: 0,
    profileName,
    io: fakeIO().io,
    config: () => Promise.resolve(store),
    signal: controller.signal,
    start: () => ((started = true), Promise.resolve(fakeSandboxHandle())),
  } as unknown as SandboxRunOptions);
  return { started, saved };
}

describe('sandbox --profile-name', () => {
  it('a name any other command takes as a profile name is saved (it was refused when it did not start with a letter or digit)', async () => {
    for (const name of ['local', '_local', 'team.a-1']) expect(await run(name), name).toEqual({ started: true, saved: [name] });
  });

  it('a name no profile may have is refused before the sandbox starts, in the words of --profile', async () => {
    // 'my box' and 'x/y' too: a profile name is also a directory name (form backups), src/config/store.ts.
    for (const name of ['', '-x', '__proto__', 'a\tb', 'my box', 'x/y']) {
      const err = await run(name).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, JSON.stringify(name)).toBeInstanceOf(UsageError);
      expect((err as UsageError).message, JSON.stringify(name)).toContain(`--profile-name ${JSON.stringify(name)} cannot be a profile name`);
    }
  });

  it('a name an older formctl saved (my box) has the exception --profile gives it: replaced if a sandbox made it, else refused as a login of the user', async () => {
    // Made by an older `sandbox --profile-name "my box"`: the same command run again replaces it.
    expect(await run('my box', { 'my box': { baseUrl: 'http://127.0.0.1:1', sandbox: true } })).toEqual({ started: true, saved: ['my box'] });
    // The user's own login under that name is kept: the error is that one, not the name's.
    const err = await run('my box', { 'my box': { baseUrl: 'https://forms.example.com' } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe('A profile named "my box" already exists (https://forms.example.com) and was not made by formctl sandbox.');
  });
});
