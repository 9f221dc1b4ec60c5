// A short key for a file name, from text that must not stand in it (a token) or that is too long
// for one (V8 flags): 8 hex digits of FNV-1a (32-bit) over the text's UTF-16 code units. Computed in
// JavaScript, so no module is loaded for it: node:crypto costs a one-request command or a Tab press
// ~3 ms of CPU to load, node:zlib (for its crc32) 1.4-2.4 ms (docs/performance.md, "One file for the
// CLI"). A key, not a digest: 32 bits say nothing usable about a long random token, and two texts
// that share a key share what it names (a rate budget, paced together; a Tab's cached ids and
// names, which their owner may read anyway): docs/security.md, "One rate budget per machine".
export function nameKey(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}
