// Words of a formctl command shown in a hint, so that it runs as written when pasted into a shell.
import { profileFlag } from '../io/shell-word.js';

export { shellWord } from '../io/shell-word.js';

/** `profileFlag` of the context in effect; empty when it cannot be resolved. */
export async function profileWords(context: (() => Promise<{ profileName: string; profileSource: string }>) | undefined): Promise<string> {
  return profileFlag(await context?.().catch(() => undefined));
}
