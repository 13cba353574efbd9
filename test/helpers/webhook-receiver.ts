// A webhook receiver for tests: a node:http server on loopback that records every
// request and answers as the test says (status, body, or not yet).
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** performance.now() when the request arrived. */
  at: number;
}

export interface Answer {
  status: number;
  body?: string;
}

export type Responder = (r: Received, index: number) => Answer | Promise<Answer>;

export class Receiver {
  readonly received: Received[] = [];
  respond: Responder = () => ({ status: 200, body: 'ok' });
  private server: http.Server | https.Server | null = null;
  private scheme = 'http';
  private waiters: (() => void)[] = [];
  port = 0;

  /** Listens on 127.0.0.1 (on `port`, or a free one); HTTPS with `tls`. */
  async start(port = 0, tls?: { key: string; cert: string }): Promise<this> {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r: Received = {
          method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: performance.now(),
        };
        const index = this.received.push(r) - 1;
        for (const w of this.waiters.splice(0)) w();
        void Promise.resolve(this.respond(r, index)).then((a) => {
          if (res.destroyed) return;
          res.writeHead(a.status, { 'content-type': 'text/plain', 'x-receiver': 'test' });
          res.end(a.body ?? '');
        });
      });
    };
    const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
    this.scheme = tls ? 'https' : 'http';
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  url(path = '/hook'): string {
    return `${this.scheme}://127.0.0.1:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The requests received so far that match, once there are at least `count` of them. */
  async waitFor(count: number, match: (r: Received) => boolean = () => true, limitMs = 20_000): Promise<Received[]> {
    const deadline = Date.now() + limitMs;
    for (;;) {
      const found = this.received.filter(match);
      if (found.length >= count) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`receiver: expected ${count} matching requests, got ${found.length} of ${this.received.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 500));
        this.waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
  }
}

/** A port nothing listens on (yet): listen, note the port, close. */
export async function unusedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Polls `check` until it returns a value (not undefined), for state that settles shortly after an event. */
export async function eventually<T>(check: () => Promise<T | undefined>, limitMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`eventually: ${what} not reached`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Receivers a test file starts, stopped together at its end. */
export class ReceiverPool {
  readonly receivers: Receiver[] = [];

  async start(): Promise<Receiver> {
    const r = await new Receiver().start();
    this.receivers.push(r);
    return r;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.receivers.map((r) => r.stop()));
  }
}

/** A request header a receiver got, by any case of its name. */
export function headerOf(r: Received, name: string): string | undefined {
  return r.headers[name.toLowerCase()] as string | undefined;
}
