import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportGoalsLine } from '../../../bench/export-goals.mjs';

const MiB = 1024 * 1024;

describe("bench/export.mjs judges #20's export goals", () => {
  it('over a 1 Gbit/s link: 0.93x curl and 129 MB are missed (the old 0.8x / 100 MB bar would have passed the ratio)', () => {
    const line = exportGoalsLine(
      [
        { size: 256 * MiB, ratio: 0.93, peak: 129 },
        { size: 1024 * MiB, ratio: 0.97, peak: 163 },
      ],
      1000,
    );
    expect(line).toBe('ratio >= 0.95: MISSED; peak RSS < 120 MB: MISSED; RSS 256 -> 1024 MiB +34 MB (flat: MISSED)');
  });

  it('over a 1 Gbit/s link: 0.96x curl at 110-113 MB meets all three', () => {
    const line = exportGoalsLine(
      [
        { size: 256 * MiB, ratio: 0.96, peak: 110 },
        { size: 1024 * MiB, ratio: 0.99, peak: 113 },
      ],
      1000,
    );
    expect(line).toBe('ratio >= 0.95: met; peak RSS < 120 MB: met; RSS 256 -> 1024 MiB +3 MB (flat: met)');
  });

  it('unpaced loopback: the throughput goal is not judged', () => {
    expect(exportGoalsLine([{ size: 256 * MiB, ratio: 0.4, peak: 100 }], undefined)).toBe(
      'ratio >= 0.95: not judged (the goal is over a link paced at --rate 1000); peak RSS < 120 MB: met',
    );
  });

  it('the bench prints the goals through this function', () => {
    const bench = readFileSync(new URL('../../../bench/export.mjs', import.meta.url), 'utf8');
    expect(bench).toContain('exportGoalsLine(mine, rateMbit)');
  });
});
