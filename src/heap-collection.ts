// A full collection when the server goes quiet after load. Under the bench's load Wharf
// keeps ~80 MB of its heap alive, yet its resident set read a second after the load
// stopped was anywhere between 300 and 430 MB: V8 collects the old generation once it has
// grown to a multiple of what survived the last full collection (up to 4×), and nothing
// collects it when allocation stops, so a burst's promoted garbage stays resident until
// the next burst (V8's memory reducer waits for seconds of low allocation, and did
// nothing within ten in a trial). Lowering V8's growing factor instead
// (--heap-growing-percent) bounds the heap under load too, but adds full collections
// while requests wait for the CPU, and on this shared 2-core machine an A/B run could not
// tell that cost from noise; so collecting under load is left to V8, and this one runs
// only when the event loop has been nearly idle for a check's interval and the heap
// holds well past what the last collection left alive. A request arriving meanwhile
// waits for it (0.1-0.25 s on the bench's heap, on a loaded machine).
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';

const CHECK_MS = 250;
/** The event loop busy at most this share of a check's interval: quiet. */
const QUIET_UTILIZATION = 0.05;
/** Garbage worth collecting: at least this, and at least a quarter of what is alive. */
const MIN_GARBAGE_BYTES = 32 * 1024 * 1024;

/** Whether to collect now: quiet, with enough above what the last collection left alive. */
export function worthCollecting(utilization: number, usedBytes: number, liveBytes: number): boolean {
  return utilization <= QUIET_UTILIZATION && usedBytes - liveBytes >= Math.max(MIN_GARBAGE_BYTES, liveBytes / 4);
}

/** Starts collecting when quiet, for the process's life (the timer does not keep it running). */
export function collectWhenQuiet(): void {
  const gc = collector();
  const used = () => v8.getHeapStatistics().used_heap_size;
  let live = used();
  let last = performance.eventLoopUtilization();
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    const heap = used();
    // V8's own full collections lower what is alive too.
    if (heap < live) live = heap;
    if (!worthCollecting(busy, heap, live)) return;
    // Compacting: a plain full collection leaves the garbage's pages committed, partly
    // used, and the resident set where it was (195 MB of heap for 77 alive, in a trial).
    v8.setFlagsFromString('--compact-on-every-full-gc');
    try {
      gc();
    } finally {
      v8.setFlagsFromString('--no-compact-on-every-full-gc');
    }
    live = used();
  }, CHECK_MS).unref();
}

/** V8's gc(): the global one when node runs with --expose-gc, else one exposed to a fresh context. */
function collector(): () => void {
  const global = (globalThis as { gc?: () => void }).gc;
  if (global) return global;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}
