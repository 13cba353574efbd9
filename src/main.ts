// config → db → migrations → app → listen, signals.
import fs from 'node:fs';
import { loadConfig } from './config.ts';
import { createServer } from './server.ts';
import { collectWhenQuiet } from './heap-collection.ts';

// Read before anything else: starting up takes long enough for npm to be gone by the
// end of it on a loaded machine, and a parent read then would be the new one.
const startingParent = process.ppid;
const config = loadConfig();
const server = await createServer(config);
await server.app.listen({ port: config.port, host: config.host });
server.ctx.log.info({ baseUrl: config.baseUrl }, 'wharf listening');
collectWhenQuiet();

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  server.ctx.log.info({ signal }, 'stopping: no new connections, finishing requests in flight');
  try {
    await server.close();
    process.exit(0);
  } catch (err) {
    server.ctx.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

// Under `npm start` (whose script execs node, so npm's forwarded SIGTERM lands
// here), npm killed outright cannot pass a signal on: when npm goes away this process
// is re-parented, and stops as it would on SIGTERM, so that stopping what a
// supervisor started stops Wharf.
// Node reads process.ppid once and keeps it, so the parent is looked up afresh: in
// /proc where there is one, else by probing the old parent's pid.
function parentGone(parent: number): boolean {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent;
  } catch {
    try {
      process.kill(parent, 0);
      return false;
    } catch {
      return true;
    }
  }
}

if (process.env.npm_lifecycle_event === 'start') {
  const watch = () => { if (parentGone(startingParent)) void shutdown('parent exited'); };
  watch();
  setInterval(watch, 500).unref();
}
