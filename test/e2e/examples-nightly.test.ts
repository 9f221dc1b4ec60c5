import { spawnTracked } from '../helpers/processes.js';
import { chmodSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { sandboxForTest } from '../helpers/fixture.js';
import { FLAVORS, csvRowIds } from '../helpers/sandbox.js';

describe.each(FLAVORS)('examples/nightly-incremental.sh (%s sandbox)', (flavor) => {
  it('each run loads only the new answers; over the runs every answer once', async () => {
    const { sb: sandbox, work: dir } = await sandboxForTest({ flavor, seed: 3 });
    // `formctl` on PATH is the built binary, as after `npm install -g`.
    writeFileSync(join(dir, 'formctl'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin', 'formctl.js'))} "$@"\n`);
    chmodSync(join(dir, 'formctl'), 0o755);
    const env = {
      PATH: `${dir}:${process.env.PATH}`,
      CI: 'true',
      HOME: dir,
      FORMCTL_CONFIG_DIR: join(dir, 'config'),
      FORM: String(sandbox.formId),
      ...sandbox.env,
    };
    const run = () =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawnTracked('bash', [join(ROOT, 'examples', 'nightly-incremental.sh'), join(dir, 'outbox')], { cwd: dir, env });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
      });
    const first = await run();
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^loaded .*\/outbox\/answers-\d{8}T\d{6}Z-\d+\.csv\n$/);
    expect(JSON.parse(readFileSync(join(dir, 'outbox', 'last-run.json'), 'utf8'))).toMatchObject({ rows: 3, first_run: true });

    const res = await fetch(`${sandbox.url}/forms/${sandbox.formSlug}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Late', email: 'late@example.com' }),
    });
    expect(res.status).toBe(200);
    const second = await run();
    expect(second.status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'outbox', 'last-run.json'), 'utf8'))).toMatchObject({ rows: 1, first_run: false });

    const done = readdirSync(join(dir, 'outbox', 'done')).sort();
    expect(done).toHaveLength(2);
    const ids = done.flatMap((f) => csvRowIds(readFileSync(join(dir, 'outbox', 'done', f), 'utf8'), flavor));
    expect(ids.sort()).toEqual([1, 2, 3, 4]);

    // Without FORM the script stops before calling formctl.
    const noForm = await new Promise<number | null>((resolve) => {
      const { FORM: _omit, ...rest } = env;
      spawnTracked('bash', [join(ROOT, 'examples', 'nightly-incremental.sh')], { cwd: dir, env: rest }).on('close', resolve);
    });
    expect(noForm).not.toBe(0);
  }, 60_000);
});
