// A webhook receiver for the reliability suites: records each delivery's id, event and
// what it is about, so a suite can tell an event delivered twice from a redelivery.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery { guid: string; event: string; action: string | null; repo: string; key: string; after: string | null }

export class Receiver {
  readonly deliveries: Delivery[] = [];
  lastAt = 0;
  private server: http.Server | null = null;
  port = 0;

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          const guid = String(req.headers['x-github-delivery'] ?? '');
          const event = String(req.headers['x-github-event'] ?? '');
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
          this.deliveries.push({ guid, event, action: body.action ?? null, repo: String(body.repository?.name ?? ''), key: eventKey(event, body), after: event === 'push' ? String(body.after ?? '') : null });
          this.lastAt = Date.now();
        } catch { /* recorded as nothing: the checks will say what is missing */ }
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

/** What a delivery is about, so that the same event delivered twice has the same key. */
function eventKey(event: string, body: Record<string, any>): string {
  const repo = String(body.repository?.name ?? '');
  if (event === 'issues') return `issues:${body.action}:${repo}#${body.issue?.number}:${body.label?.name ?? ''}`;
  if (event === 'issue_comment') return `issue_comment:${body.action}:${repo}:${body.comment?.id}`;
  if (event === 'push') return `push:${repo}:${body.ref}:${body.before}..${body.after}`;
  if (event === 'create') return `create:${repo}:${body.ref_type}:${body.ref}`;
  return `${event}:${body.action ?? ''}:${repo}:${body.hook_id ?? ''}`;
}
