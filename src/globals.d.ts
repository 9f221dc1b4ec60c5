/** Injected by esbuild (scripts/build.mjs) and vitest (vitest.config.ts) from package.json. */
declare const __FORMCTL_VERSION__: string;
