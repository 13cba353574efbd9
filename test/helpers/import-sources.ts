// Source servers for the import tests, on loopback: git smart HTTP (git http-backend
// behind a small CGI bridge, with optional basic auth and a gate that holds fetches so
// a test can act while an import is under way), svnserve and hg serve.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { unusedPort } from './webhook-receiver.ts';

export class GitSourceServer {
  private server: http.Server | null = null;
  port = 0;
  /** While set, upload-pack requests (the fetch itself) wait for release(). */
  private held: (() => void)[] | null = null;
  heldCount = 0;

  constructor(private readonly root: string, private readonly auth: { prefix: string; user: string; password: string } | null = null) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(p: string): string {
    return `http://127.0.0.1:${this.port}/${p}`;
  }

  hold(): void {
    this.held = [];
  }

  release(): void {
    const waiting = this.held ?? [];
    this.held = null;
    for (const w of waiting) w();
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    if (this.auth && url.pathname.startsWith(this.auth.prefix)) {
      const expected = `Basic ${Buffer.from(`${this.auth.user}:${this.auth.password}`).toString('base64')}`;
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="source"' }).end('no');
        req.resume();
        return;
      }
    }
    if (this.held && url.pathname.endsWith('/git-upload-pack')) {
      this.heldCount += 1;
      await new Promise<void>((resolve) => this.held ? this.held.push(resolve) : resolve());
    }
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH, GIT_PROJECT_ROOT: this.root, GIT_HTTP_EXPORT_ALL: '1', PATH_INFO: decodeURIComponent(url.pathname),
        REQUEST_METHOD: req.method ?? 'GET', QUERY_STRING: url.search.slice(1), CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
        REMOTE_ADDR: '127.0.0.1', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    req.pipe(child.stdin);
    // Killed when the client goes away (a cancelled import) while its request is still piped in.
    child.stdin.on('error', () => { /* the exit tells */ });
    res.on('close', () => child.kill());
    let head = Buffer.alloc(0);
    let started = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (started) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      started = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const i = line.indexOf(':');
        const k = line.slice(0, i).trim().toLowerCase();
        const v = line.slice(i + 1).trim();
        if (k === 'status') status = Number(v.split(' ')[0]);
        else headers[k] = v;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    child.on('close', () => {
      if (!started) res.writeHead(502).end();
      else res.end();
    });
  }

  async stop(): Promise<void> {
    this.release();
    const s = this.server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

/** A long-running tool (svnserve, hg serve) listening on a free loopback port. */
export class ToolServer {
  private child: ChildProcess | null = null;
  port = 0;

  async start(cmd: string, args: (port: number) => string[], cwd?: string): Promise<this> {
    this.port = await unusedPort();
    this.child = spawn(cmd, args(this.port), { cwd, stdio: 'ignore' });
    // Ready once it accepts connections.
    const net = await import('node:net');
    for (let i = 0; i < 200; i++) {
      const ok = await new Promise<boolean>((resolve) => {
        const s = net.connect(this.port, '127.0.0.1', () => { s.destroy(); resolve(true); });
        s.on('error', () => resolve(false));
      });
      if (ok) return this;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${cmd} did not start`);
  }

  async stop(): Promise<void> {
    const c = this.child;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('close', () => resolve());
      c.kill();
    });
  }
}

export function writeFile(dir: string, name: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  fs.writeFileSync(path.join(dir, name), content);
}
