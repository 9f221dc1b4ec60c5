// fast-levenshtein ships no types; the one function formctl uses.
declare module 'fast-levenshtein' {
  export function get(a: string, b: string): number;
}
