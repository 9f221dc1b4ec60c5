import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { spawnTracked } from '../helpers/processes.js';

// 1,100 idle connections once locked the sandbox out at a file limit of 1,024 until Node's header
// timeout closed them. The sandbox runs here under `ulimit -n 1024`, as on a
// usual machine; this test process holds the 1,100 client sockets, so it needs a higher limit itself.
const SOCKETS = 1_100;
const ownLimit = Number(execFileSync('bash', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
const enough = !Number.isFinite(ownLimit) || ownLimit >= SOCKETS + 300;

function openIdle(port: number, n: number): Promise<Socket[]> {
  return new Promise((resolve) => {
    const sockets: Socket[] = [];
    let settled = 0;
    for (let i = 0; i < n; i++) {
      const s = connect({ host: '127.0.0.1', port });
      s.on('error', () => undefined);
      // Connected, or closed by the sandbox: either way this one is settled.
      const once = () => {
        s.off('connect', once);
        s.off('close', once);
        if (++settled === n) resolve(sockets);
      };
      s.on('connect', once);
      s.on('close', once);
      sockets.push(s);
    }
  });
}

describe('sandbox connection limits (e2e, under ulimit -n 1024)', () => {
  it.skipIf(!enough)(`${SOCKETS} idle connections beside a working client: its request succeeds`, { timeout: 90_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'formctl-conns-'));
    const ready = join(dir, 'ready.json');
    let child: ChildProcess | undefined;
    const sockets: Socket[] = [];
    try {
      child = spawnTracked('bash', ['-c', `ulimit -n 1024 && exec "$0" "$1" sandbox --port 0 --rate-limit 0 --ready-file "$2"`, process.execPath, BIN, ready], {
        env: { PATH: process.env.PATH, HOME: dir, FORMCTL_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' },
        stdio: 'ignore',
      });
      const exited = new Promise<number | null>((r) => child!.once('exit', r));
      while (!existsSync(ready)) {
        const gone = await Promise.race([exited, new Promise((r) => setTimeout(() => r('wait'), 50))]);
        if (gone !== 'wait') throw new Error(`the sandbox exited (${String(gone)}) before it was ready`);
      }
      const info = JSON.parse(readFileSync(ready, 'utf8')) as { url: string; tokens: { all: string } };
      const port = Number(new URL(info.url).port);
      // In batches, so the listen backlog is not what is being tested.
      for (let opened = 0; opened < SOCKETS; opened += 100) sockets.push(...(await openIdle(port, Math.min(100, SOCKETS - opened))));
      // The working client: a request that must be answered (not hang until the idle ones time out).
      const res = await fetch(`${info.url}/open/workspaces`, { headers: { authorization: `Bearer ${info.tokens.all}` }, signal: AbortSignal.timeout(30_000) });
      expect(res.status).toBe(200);
      expect(Array.isArray(await res.json())).toBe(true);
      // The sandbox is still up, and kept within its limit: most of the idle connections were closed.
      expect(child.exitCode).toBeNull();
      expect(sockets.filter((s) => !s.destroyed && s.readyState === 'open').length).toBeLessThanOrEqual(1024);
    } finally {
      for (const s of sockets) s.destroy();
      if (child && child.exitCode === null) {
        const gone = new Promise((r) => child!.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
