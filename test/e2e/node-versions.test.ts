import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';

// bin/formctl.js refuses the Node versions the CLI cannot run on (docs/contributing.md, "Node
// versions"). Those Nodes are not on this machine: a preload makes the running Node report another
// version, which is all the shim reads.
const dir = mkdtempSync(join(tmpdir(), 'formctl-node-versions-'));
const preload = join(dir, 'fake-version.cjs');
writeFileSync(
  preload,
  [
    "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: process.env.FAKE_NODE_VERSION }, configurable: true });",
    "Object.defineProperty(process, 'version', { value: 'v' + process.env.FAKE_NODE_VERSION, configurable: true });",
    '',
  ].join('\n'),
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (version: string) =>
  runFormctl(['config', 'path'], {
    env: { NODE_OPTIONS: `--require ${preload}`, FAKE_NODE_VERSION: version, FORMCTL_CONFIG_DIR: join(dir, 'config'), FORMCTL_CACHE_DIR: join(dir, 'cache') },
  });

describe('the Node versions formctl starts on', () => {
  it.each(['18.20.4', '20.18.0', '21.7.3', '22.0.0', '22.2.0'])('refuses %s with one line naming the versions that work', async (version) => {
    const r = await run(version);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      1,
      '',
      `error: formctl needs Node.js 20.18.1 or newer on the Node 20 line, or 22.3 or newer; this is v${version}.\n`,
    ]);
  });

  it.each(['20.18.1', '20.20.2', '22.3.0', '24.0.0', '26.12.1'])('starts on %s', async (version) => {
    const r = await run(version);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
