/** "12.3 MB". */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = -1;
  do {
    v /= 1000;
    i++;
  } while (v >= 1000 && i < units.length - 1);
  return `${v.toFixed(1)} ${units[i]}`;
}

/** A ten-cell bar for a fraction from 0 to 1: "▕████░░░░░░▏". */
export function progressBar(fraction: number, cells = 10): string {
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  const full = Math.round(f * cells);
  return `▕${'█'.repeat(full)}${'░'.repeat(cells - full)}▏`;
}
