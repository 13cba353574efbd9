// WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside
// whichever commit pushes the WAL past its limit, fsyncs included, on the thread that
// serves requests: measured, it cost every commit about a third of its time (a GET's
// rate-limit count ~20 µs instead of ~15, an issue create's commit ~200 µs instead of
// ~105). A worker thread with a connection of its own checkpoints instead, PASSIVE:
// it never waits for or blocks a writer. The request connection keeps a far larger
// automatic limit as a backstop should the worker fall behind or die.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Pages the WAL may grow to before the request connection checkpoints by itself (about 80 MB). */
export const BACKSTOP_PAGES = 20_000;
const INTERVAL_MS = 200;

// Plain CommonJS run by eval: the worker needs no TypeScript loader, and starts fast.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or closing: the next round tries again */ }
}, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  try { db.close(); } finally { parentPort.postMessage('stopped'); }
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, intervalMs = INTERVAL_MS): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { file, driver, intervalMs } });
  worker.unref();
  // A worker that cannot run leaves checkpoints to the backstop; it must not stop Wharf.
  worker.on('error', () => {});
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (m) => { if (m === 'stopped') void worker.terminate(); });
  return {
    async stop() {
      worker.postMessage('stop');
      await exited;
    },
  };
}
