// WHARF_METRICS_PORT: GET /metrics on a port of its own, without authentication, for a
// scraper on a network that only operators reach. Plain HTTP (a scraper's side port,
// not the API), nothing but GET and HEAD /metrics.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { METRICS_CONTENT_TYPE } from './metrics.ts';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(port: number, host: string, render: () => Promise<string>, onError: (err: unknown) => void): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'content-type': 'text/plain; charset=utf-8', allow: 'GET, HEAD' }).end('Method Not Allowed\n');
      return;
    }
    render().then((text) => {
      res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'content-length': Buffer.byteLength(text) });
      res.end(req.method === 'HEAD' ? undefined : text);
    }, (err: unknown) => {
      onError(err);
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Internal Server Error\n');
    });
  });
  // A scraper keeps its connection; slow senders get no longer than on PORT's defaults.
  server.headersTimeout = 30_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      server.on('error', onError);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
