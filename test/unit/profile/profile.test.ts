import { describe, expect, it } from 'vitest';
import { profileListRun } from '../../../src/commands/profile/list.js';
import { profileRemoveRun } from '../../../src/commands/profile/remove.js';
import { profileUseRun } from '../../../src/commands/profile/use.js';
import { CliError } from '../../../src/errors.js';
import { fakeIO } from '../../helpers/io.js';
import { scriptedPrompter, testConfig } from '../auth/fixtures.js';

async function seeded(o: { env?: NodeJS.ProcessEnv; profile?: string } = {}) {
  const t = await testConfig(o);
  await t.store.saveProfile('work', { baseUrl: 'https://api.opnform.com', token: 'tok_secret_work', workspace: 12 });
  await t.store.saveProfile('local', { baseUrl: 'http://127.0.0.1:8787' });
  return t;
}

describe('profile list', () => {
  it('TTY: a table with the current profile marked, never the token', async () => {
    const t = await seeded();
    const fio = fakeIO({ tty: true });
    await profileListRun({ ...t, io: fio.io });
    expect(fio.out()).toBe(
      [
        'NAME   BASE URL                 WORKSPACE  TOKEN  CURRENT',
        'local  http://127.0.0.1:8787    -          none   -',
        'work   https://api.opnform.com  12         saved  *',
        '',
      ].join('\n'),
    );
    await t.cleanup();
  });

  it('piped: TSV rows; --json: all fields; the current profile follows --profile', async () => {
    const t = await seeded({ profile: 'local' });
    const a = fakeIO();
    await profileListRun({ ...t, io: a.io });
    expect(a.out()).toBe('local\thttp://127.0.0.1:8787\t\tnone\t*\nwork\thttps://api.opnform.com\t12\tsaved\t\n');
    const b = fakeIO();
    await profileListRun({ ...t, io: b.io, json: true });
    expect(JSON.parse(b.out())).toEqual([
      { name: 'local', base_url: 'http://127.0.0.1:8787', workspace: null, current: true, logged_in: false },
      { name: 'work', base_url: 'https://api.opnform.com', workspace: 12, current: false, logged_in: true },
    ]);
    expect(b.out()).not.toContain('tok_secret');
    await t.cleanup();
  });

  it('FORMCTL_PROFILE overriding the current profile: the one it names is marked, and a note says so', async () => {
    const t = await seeded({ env: { FORMCTL_PROFILE: 'local' } });
    await t.store.setCurrent('work');
    const a = fakeIO();
    await profileListRun({ ...t, io: a.io });
    expect(a.out()).toBe('local\thttp://127.0.0.1:8787\t\tnone\t*\nwork\thttps://api.opnform.com\t12\tsaved\t\n');
    expect(a.err()).toBe('note: FORMCTL_PROFILE=local overrides the current profile (work): the one marked current is the profile it names.\n');
    const missing = await seeded({ env: { FORMCTL_PROFILE: 'gone' } });
    await missing.store.setCurrent('work');
    const b = fakeIO();
    await profileListRun({ ...missing, io: b.io, json: ['name', 'current'] });
    expect(JSON.parse(b.out())).toEqual([
      { name: 'local', current: false },
      { name: 'work', current: false },
    ]);
    expect(b.err()).toBe('note: FORMCTL_PROFILE=gone overrides the current profile (work): it names no saved profile, so none is current.\n');
    await t.cleanup();
    await missing.cleanup();
  });

  it('no profiles: nothing on stdout, a hint on stderr (TTY)', async () => {
    const t = await testConfig();
    const fio = fakeIO({ tty: true });
    await profileListRun({ ...t, io: fio.io });
    expect(fio.out()).toBe('');
    expect(fio.err()).toBe('No profiles. Create one with `formctl auth login`.\n');
    await t.cleanup();
  });
});

describe('profile use / remove', () => {
  it('use switches the current profile; an unknown name lists the saved ones (exit 2)', async () => {
    const t = await seeded();
    const fio = fakeIO({ tty: true });
    await profileUseRun({ io: fio.io, config: t.config, env: t.env, name: 'local' });
    expect(t.store.data.currentProfile).toBe('local');
    expect(fio.out()).toBe('✓ Current profile: local\n');
    const err = (await profileUseRun({ io: fio.io, config: t.config, env: t.env, name: 'nope' }).catch((e) => e)) as CliError;
    expect([err.exitCode, err.message, err.hint]).toEqual([2, 'No profile named "nope".', 'Saved profiles: work, local']);
    await t.cleanup();
  });

  it('use, with FORMCTL_PROFILE naming another profile: switches all the same, and a note says the variable overrides it', async () => {
    const t = await seeded({ env: { FORMCTL_PROFILE: 'work' } });
    const fio = fakeIO({ tty: true });
    await profileUseRun({ io: fio.io, config: t.config, env: t.env, name: 'local' });
    expect(t.store.data.currentProfile).toBe('local');
    expect(fio.out()).toBe('✓ Current profile: local\n');
    expect(fio.err()).toBe('note: FORMCTL_PROFILE=work overrides the current profile (local): commands use the profile it names until it is unset.\n');
    const same = fakeIO();
    await profileUseRun({ io: same.io, config: t.config, env: t.env, name: 'work' });
    expect(same.err()).toBe('');
    await t.cleanup();
  });

  it('remove needs --yes off a TTY and keeps the profile without it', async () => {
    const t = await seeded();
    const fio = fakeIO();
    const err = (await profileRemoveRun({ io: fio.io, config: t.config, prompter: () => scriptedPrompter().prompter, name: 'work' }).catch(
      (e) => e,
    )) as CliError;
    expect(err.exitCode).toBe(2);
    expect(err.hint).toBe('Pass --yes to confirm.');
    expect(t.store.profile('work')).toBeDefined();
    await profileRemoveRun({ io: fio.io, config: t.config, prompter: () => scriptedPrompter().prompter, name: 'work', yes: true });
    expect(Object.keys(t.store.data.profiles)).toEqual(['local']);
    expect(t.store.data.currentProfile).toBe('local');
    await t.cleanup();
  });

  it('remove on a TTY asks; "no" cancels with exit 3', async () => {
    const t = await seeded();
    const fio = fakeIO({ tty: true });
    const { prompter, asked } = scriptedPrompter({ confirm: [false] });
    const err = (await profileRemoveRun({ io: fio.io, config: t.config, prompter: () => prompter, name: 'local' }).catch((e) => e)) as CliError;
    expect(err.exitCode).toBe(3);
    expect(asked).toEqual(['confirm: Remove profile local and its saved token?']);
    expect(t.store.profile('local')).toBeDefined();
    await t.cleanup();
  });
});
