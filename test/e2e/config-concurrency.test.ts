import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFormctl, tempHome } from '../helpers/cli.js';

const home = tempHome();
afterAll(() => home.cleanup());

describe('settings saved by several formctl processes at once (e2e)', () => {
  it('six processes each saving a profile at the same moment all keep theirs', async () => {
    const results = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((i) => runFormctl(['--profile', `p${i}`, 'config', 'set', 'base_url', `http://127.0.0.1:900${i}`], { env: home.env })),
    );
    expect(results.map((r) => [r.code, r.stderr])).toEqual(results.map(() => [0, '']));
    const file = JSON.parse(readFileSync(join(home.env.FORMCTL_CONFIG_DIR!, 'config.json'), 'utf8')) as { profiles: Record<string, { baseUrl: string }> };
    expect(Object.fromEntries(Object.entries(file.profiles).map(([k, v]) => [k, v.baseUrl]))).toEqual({
      p1: 'http://127.0.0.1:9001',
      p2: 'http://127.0.0.1:9002',
      p3: 'http://127.0.0.1:9003',
      p4: 'http://127.0.0.1:9004',
      p5: 'http://127.0.0.1:9005',
      p6: 'http://127.0.0.1:9006',
    });
  });
});
