// #20's export goals, judged from bench/export.mjs's results for one Node: over a link paced at
// 1 Gbit/s (--rate 1000), at least 0.95x curl's throughput at 256 MiB and up (below that Node's
// start-up is most of the time); peak RSS under 120 MB at every size, and flat (under 20 MB of
// growth) from the smallest size to the largest.
export const EXPORT_GOALS = { ratio: 0.95, rateMbit: 1000, peakMB: 120, growthMB: 20 };
const MiB = 1024 * 1024;

/**
 * The goals line for one Node: `results` are its rows ({ size in bytes, ratio to curl or undefined,
 * peak RSS in MB }) in size order; `rateMbit` the link's pace (undefined: unpaced loopback, where the
 * throughput goal does not apply).
 */
export function exportGoalsLine(results, rateMbit) {
  const met = (ok) => (ok ? 'met' : 'MISSED');
  const line = [];
  const ratios = results.filter((r) => r.ratio !== undefined && r.size >= 256 * MiB);
  if (ratios.length) {
    line.push(
      rateMbit === EXPORT_GOALS.rateMbit
        ? `ratio >= ${EXPORT_GOALS.ratio}: ${met(ratios.every((r) => r.ratio >= EXPORT_GOALS.ratio))}`
        : `ratio >= ${EXPORT_GOALS.ratio}: not judged (the goal is over a link paced at --rate ${EXPORT_GOALS.rateMbit})`,
    );
  }
  line.push(`peak RSS < ${EXPORT_GOALS.peakMB} MB: ${met(results.every((r) => r.peak < EXPORT_GOALS.peakMB))}`);
  if (results.length > 1) {
    const growth = results.at(-1).peak - results[0].peak;
    line.push(
      `RSS ${results[0].size / MiB} -> ${results.at(-1).size / MiB} MiB ${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MB (flat: ${met(growth < EXPORT_GOALS.growthMB)})`,
    );
  }
  return line.join('; ');
}
