import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';
import { spawnTracked } from '../helpers/processes.js';

// The commands that used to print their own JSON now go through the output layer: each takes a
// field list (checked before anything is sent), and `webhook listen` streams under --ndjson.

const fx = useSandboxFixture({ allowPrivateWebhooks: true, seed: 3 });
const children: ChildProcessWithoutNullStreams[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** Spawns formctl with `args` and resolves with its first stdout line (the process is killed in afterAll at the latest). */
function firstLine(args: string[]): Promise<{ line: string; child: ChildProcessWithoutNullStreams; stderr: () => string }> {
  const child = spawnTracked(process.execPath, [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, NO_COLOR: '1', ...fx.env } });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve({ line, child, stderr: () => stderr }));
    child.once('close', (code) => reject(new Error(`exited ${code} before a line: ${stderr}`)));
  });
}

/** Stops a long-running child with SIGINT and waits for it. */
function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('close', (code) => resolve(code));
    child.kill('SIGINT');
  });
}

describe('one --json path', () => {
  it('submission update --json takes a field list', async () => {
    const r = await runFormctl(['submission', 'update', String(fx.sb.formId), '2', '--set', 'Name=Ada', '--json', 'id,updated'], { env: fx.env });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ id: 2, updated: [expect.any(String)] });
  });

  it('an unknown field is refused before anything is sent (exit 2, the fields listed)', async () => {
    const r = await runFormctl(['submission', 'update', String(fx.sb.formId), '2', '--set', 'Name=Bea', '--json', 'nope'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: Unknown JSON field: nope.\nhint: Available fields: submission_id, id, form_id, updated, message\n');
  });

  it('webhook rotate-secret prints the picked fields', async () => {
    const created = await runFormctl(['webhook', 'create', String(fx.sb.formId), '--url', `${fx.sb.url}/__hook`, '--allow-private', '--json', 'id'], {
      env: fx.env,
    });
    expect(created.code).toBe(0);
    const id = String((JSON.parse(created.stdout) as { id: number }).id);
    const rotated = await runFormctl(['webhook', 'rotate-secret', String(fx.sb.formId), id, '--json', 'form_id'], { env: fx.env });
    expect(rotated.stdout).toBe(`{\n  "form_id": ${fx.sb.formId}\n}\n`);
  });

  it('webhook send prints the picked fields on one line; listen streams under --ndjson, and its old --json still works but is not in help', async () => {
    for (const flag of ['--ndjson', '--json']) {
      const child = spawnTracked(process.execPath, [BIN, 'webhook', 'listen', '--port', '0', flag], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, NO_COLOR: '1', ...fx.env },
      });
      children.push(child);
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let err = '';
          child.stderr.on('data', (d: Buffer) => {
            err += d.toString();
            const m = /^Listening on (http:\/\/\S+)$/m.exec(err);
            if (m) resolve(m[1]!);
          });
          child.once('close', (code) => reject(new Error(`listen exited ${code}: ${err}`)));
        });
        const line = new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
        const sent = await runFormctl(['webhook', 'send', `${url}/hook`, '--json', 'status,signed'], { env: fx.env });
        expect(sent.stdout).toBe('{"status":200,"signed":false}\n');
        expect(JSON.parse(await line)).toMatchObject({ seq: 1, method: 'POST', path: '/hook' });
      } finally {
        expect(await stop(child)).toBe(0);
      }
    }
    const help = await runFormctl(['webhook', 'listen', '--help']);
    expect(help.stdout).toContain('--ndjson');
    expect(help.stdout).not.toContain('--json');
  });

  it('sandbox --json with fields prints one line of just those', async () => {
    const { line, child } = await firstLine(['sandbox', '--port', '0', '--json', 'url,flavor']);
    try {
      expect(JSON.parse(line)).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), flavor: 'spec' });
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });
});

describe('--jq', () => {
  it("on formctl api and a list: strings raw; a bad expression is exit 2 with jq's message and changes nothing", async () => {
    const api = await runFormctl(['api', '/open/workspaces', '--jq', '.[0].id'], { env: fx.env });
    expect(api).toMatchObject({ code: 0, stdout: `${fx.sb.workspaceId}\n` });
    const ws = await runFormctl(['workspace', 'list', '--jq', '.[] | "id \\(.id): \\(.name | type)"'], { env: fx.env });
    expect(ws.stdout).toBe(`id ${fx.sb.workspaceId}: string\n`);
    const bad = await runFormctl(['form', 'update', String(fx.sb.formId), '--title', 'Never', '--jq', '.title |'], { env: fx.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: jq: error: syntax error, unexpected end of file .*line 1, column 8:\n/);
    const title = await runFormctl(['form', 'get', String(fx.sb.formId), '--jq', '.title'], { env: fx.env });
    expect(title.stdout).not.toBe('Never\n');
  });
});
