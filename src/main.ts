// config → db → migrations → app → listen, signals.
import { loadConfig } from './config.ts';
import { createServer } from './server.ts';

const config = loadConfig();
const server = await createServer(config);
await server.app.listen({ port: config.port, host: config.host });
server.ctx.log.info({ baseUrl: config.baseUrl }, 'wharf listening');

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
