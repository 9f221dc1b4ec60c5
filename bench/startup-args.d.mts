export declare const STARTUP_USAGE: string;
export declare function startupArgs(
  argv: string[],
  env?: Record<string, string | undefined>,
): { help: true } | { error: string } | { runs: number; warmup: number; nodes: string[]; bin: string | undefined };
