import v8 from 'node:v8';

/** How often a download looks at its buffers' memory: every MiB copied. */
const LOOK_EVERY = 1024 * 1024;
/** The buffers' memory (`process.memoryUsage().arrayBuffers`) above which a download frees the dead ones. */
export const RECLAIM_ABOVE = 16 * 1024 * 1024;

/**
 * What a download tells its reclaimer: how many bytes it has copied so far. Returns whether it
 * started a young collection this time (for tests; a download need not look).
 */
export type Reclaimer = (total: number) => boolean;

/**
 * Keeps a long download's memory low and flat on every Node line (docs/performance.md, "A
 * download frees its own dead read buffers").
 *
 * Each socket read arrives in a fresh 64 KiB buffer that is garbage once its bytes are written out.
 * A download allocates almost nothing else on V8's heap, so no young collection ever runs, and V8
 * frees those buffers only when they reach its external-memory limit: ~64 MB of them on Node 24
 * and 26 (V8 13 and later), which put a 1 GiB export at ~140 MB of RSS, against ~32 MB on Node 20.
 *
 * Every MiB copied this looks at the buffers' memory; above `above` (16 MiB) it runs a young
 * collection, which frees the young buffers' memory. JavaScript has no call for that (V8's
 * `gc()` needs a flag, and formctl changes none), so it does what any allocating program does:
 * it fills the young generation with short-lived objects until V8 collects it, which it sees
 * from V8's own figures (`v8.getHeapSpaceStatistics()`), so it holds for any young-generation
 * size.
 */
export function reclaimer(above = RECLAIM_ABOVE, buffers = () => process.memoryUsage().arrayBuffers, collect = youngCollection): Reclaimer {
  let next = LOOK_EVERY;
  let givenUp = false;
  // What a young collection cannot free (buffers still in use, or moved to the old generation by
  // an earlier full collection), as seen at the first look after the last one: the next collection
  // waits for `above` more on top of it, rather than coming at every MiB for nothing.
  let kept = 0;
  let seeKept = false;
  return (total) => {
    if (givenUp || total < next) return false;
    next = total + LOOK_EVERY;
    const held = buffers();
    if (seeKept) [kept, seeKept] = [held, false];
    if (held <= kept + above) return false;
    // A V8 on which the filler brings about no collection it can see (another layout of its heap)
    // would have it allocate its whole bound at every MiB: the download leaves collection to V8.
    if (collect()) seeKept = true;
    else givenUp = true;
    return true;
  };
}

/** Elements per filler array: ~8 KB each (~4 KB where V8 compresses pointers), well below V8's large-object size. */
const FILLER_LENGTH = 1000;
/** Filler arrays between two looks at the young generation: at least 64 KB. */
const BATCH = 16;
/** The most filler one collection allocates, counting 4 bytes an element: more than the young generation V8 sizes by default (16–64 MB). */
const MOST_BATCHES = Math.ceil((64 * 1024 * 1024) / (BATCH * FILLER_LENGTH * 4));
/**
 * Where filler lands. Each array is stored on the heap, so the optimising compiler cannot leave its
 * allocation out, and the next one replaces it at once: at most one array is alive when V8
 * collects, so the collection finds almost nothing that survives. (With more survivors V8 soon
 * grows the young generation, which costs resident memory of its own.)
 */
const slot: unknown[] = [undefined];

function youngUsed(): number | undefined {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_used_size;
}

/**
 * Runs one young collection by allocating short-lived arrays until V8 collects the young
 * generation, which it does when an allocation finds it full. The young generation's used size
 * (as V8 reports it) only grows between collections, so it falling says the collection happened;
 * V8 may also grow the young generation first, so this does not trust its free room. Returns
 * false if this V8 names its spaces otherwise, or if no collection came within that bound of filler.
 */
export function youngCollection(): boolean {
  let used = youngUsed();
  if (used === undefined) return false;
  try {
    for (let b = 0; b < MOST_BATCHES; b++) {
      for (let i = 0; i < BATCH; i++) slot[0] = new Array<unknown>(FILLER_LENGTH);
      const now = youngUsed() ?? 0;
      if (now < used) return true;
      used = now;
    }
    return false;
  } finally {
    slot[0] = undefined;
  }
}
