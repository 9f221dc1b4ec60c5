// fast-levenshtein ships no types; the one function formctl uses (a CommonJS module: its exports are the default export).
declare module 'fast-levenshtein' {
  const levenshtein: { get(this: void, a: string, b: string): number };
  export default levenshtein;
}
