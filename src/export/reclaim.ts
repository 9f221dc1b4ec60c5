import { Session } from 'node:inspector';

/** How often a download looks at its buffers' memory: every MiB copied. */
const LOOK_EVERY = 1024 * 1024;
/** The buffers' memory (`process.memoryUsage().arrayBuffers`) above which a download asks for a collection. */
export const RECLAIM_ABOVE = 32 * 1024 * 1024;

/**
 * What a download tells its reclaimer: how many bytes it has copied so far; and that it is over.
 * `copied` returns a promise when it asked for a collection (V8 runs it from a task and answers
 * after), settled once it is done; a download need not wait for it.
 */
export interface Reclaimer {
  copied(total: number): Promise<void> | undefined;
  close(): void;
}

/**
 * Keeps a long download's memory low and flat on every Node line. Every MiB copied it looks at the
 * memory held by buffers (`process.memoryUsage().arrayBuffers`); above `above` (32 MiB) it asks V8
 * for a garbage collection through an in-process inspector session: Node's own API, no flag, no
 * debugger attached.
 *
 * Why: each socket read arrives in a fresh 64 KiB buffer that is garbage once its bytes are
 * written out. A download allocates almost nothing else, so V8 collects only when those dead
 * buffers reach its external-memory limit: ~64 MB of them on Node 24 and 26 (V8 13 and later),
 * which put a 1 GiB export at ~140 MB of RSS there, against ~32 MB of them on Node 20 (~85 MB of
 * RSS). Node 20 and 22 seldom reach the threshold, so they keep V8's own pace; on 24 and 26 the
 * download stays near 100 MB for no measurable CPU (docs/performance.md, "Export streaming").
 *
 * A Node built without the inspector, or any error from it, leaves collection to V8 as before. The
 * session is opened on the first collection; `close()` ends it (call it on every path).
 */
export function reclaimer(above = RECLAIM_ABOVE, buffers = () => process.memoryUsage().arrayBuffers): Reclaimer {
  let session: Session | undefined;
  let broken = false;
  let next = LOOK_EVERY;
  return {
    copied(total: number) {
      if (broken || total < next) return undefined;
      next = total + LOOK_EVERY;
      try {
        if (buffers() <= above) return undefined;
        if (session === undefined) {
          session = new Session();
          session.connect();
        }
        const s = session;
        return new Promise<void>((done) => s.post('HeapProfiler.collectGarbage', () => done()));
      } catch {
        broken = true;
        return undefined;
      }
    },
    close() {
      try {
        session?.disconnect();
      } catch {
        // Already closed.
      }
      session = undefined;
    },
  };
}
