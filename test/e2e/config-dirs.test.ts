import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';

// A file where formctl expects a directory is the user's to fix: house wording and exit 2, never
// Node's "EEXIST: file already exists, mkdir …" with a "this is a bug" hint.
let home: ReturnType<typeof tempHome>;
let file: string;
beforeAll(() => {
  home = tempHome();
  file = join(home.dir, 'afile');
  writeFileSync(file, 'x');
});
afterAll(() => home.cleanup());

describe('a file in the way of a directory', () => {
  it('webhook listen --save-dir FILE', async () => {
    const r = await runFormctl(['webhook', 'listen', '--port', '0', '--save-dir', file], { env: home.env });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: Cannot use ${file} as a directory: it is a file.\nhint: Pass --save-dir a directory (it is created when missing).\n`,
    });
  });

  it('webhook listen --save-dir FILE/sub', async () => {
    const r = await runFormctl(['webhook', 'listen', '--port', '0', '--save-dir', join(file, 'sub')], { env: home.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: Cannot use ${join(file, 'sub')} as a directory: a part of the path is a file, not a directory.\nhint: Pass --save-dir a directory (it is created when missing).\n`,
    );
  });

  it('a config directory that is a file', async () => {
    for (const args of [
      ['config', 'list'],
      ['config', 'set', 'base_url', 'https://forms.example.com'],
    ]) {
      const r = await runFormctl(args, { env: { ...home.env, FORMCTL_CONFIG_DIR: file } });
      expect(r).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: Cannot use ${file} as a directory: it is a file.\nhint: formctl keeps its profiles there: remove or rename what is in the way, or set FORMCTL_CONFIG_DIR to a directory.\n`,
      });
    }
  });
});
