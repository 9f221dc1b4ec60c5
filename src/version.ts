/** formctl's own version, from package.json at build time. */
export const VERSION: string = __FORMCTL_VERSION__;

/** The User-Agent every request carries. */
export function userAgent(): string {
  return `formctl/${VERSION} node/${process.versions.node}`;
}
