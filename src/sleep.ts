import { InterruptedError } from './errors.js';

/** A sleep that ends early, rejecting with InterruptedError (exit 130), when the signal aborts; its timer is cleared then. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new InterruptedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new InterruptedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The longest duration any flag takes, in seconds: Node's timers hold at most 2^31 - 1 ms (about 24.8
 * days); a longer one fires after 1 ms, with a TimeoutOverflowWarning, so a huge --timeout would
 * fail every request at once.
 */
export const MAX_SECONDS = Math.floor((2 ** 31 - 1) / 1000);
/** The words for that limit, in every duration flag's error. */
export const MAX_SECONDS_WORDS = `at most ${MAX_SECONDS} (about 24 days, the longest timer Node keeps)`;
