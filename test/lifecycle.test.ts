// The process as deployed: `node src/main.ts` with its environment. Request logs,
// SIGTERM draining, HTTPS from WHARF_TLS_CERT / WHARF_TLS_KEY.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_TOKEN, createPgSchema, dropPgSchema, testDialect } from './helpers/server.ts';
import { programArgs } from './helpers/programs.ts';

interface Child {
  proc: ChildProcess;
  port: number;
  lines: string[];
  exited: Promise<number | null>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

let pgSchema: string | undefined;
const pgUrl = process.env.WHARF_TEST_DATABASE_URL;

async function startMain(dataDir: string, env: Record<string, string> = {}): Promise<Child> {
  const port = await freePort();
  const proc = spawn(process.execPath, [...programArgs('src/main.ts')], {
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', WHARF_DATA_DIR: dataDir, WHARF_ADMIN_TOKEN: ADMIN_TOKEN, LOG_LEVEL: 'info', WHARF_SSH_PORT: '0',
      ...(testDialect() === 'postgres' && pgUrl && pgSchema ? { DATABASE_URL: pgUrl, WHARF_DATABASE_SCHEMA: pgSchema } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buffered = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    lines.push(...parts);
  });
  proc.stderr!.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  // Generous: starting (tsx compiling, migrations) is slow on a loaded 2-core machine.
  const deadline = Date.now() + 60_000;
  while (!lines.some((l) => l.includes('wharf listening'))) {
    if (Date.now() > deadline || proc.exitCode !== null) {
      proc.kill('SIGKILL');
      throw new Error(`server did not start:\n${lines.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { proc, port, lines, exited };
}

describe('the wharf process', () => {
  let dataDir: string;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-main-'));
    if (testDialect() === 'postgres' && pgUrl) pgSchema = await createPgSchema(pgUrl);
  });
  after(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (pgUrl && pgSchema && !process.env.WHARF_TEST_KEEP_SCHEMAS) await dropPgSchema(pgUrl, pgSchema);
  });

  test('logs one structured line per request: request id, method, route, status, duration', async () => {
    const child = await startMain(dataDir);
    try {
      const res = await fetch(`http://127.0.0.1:${child.port}/users/admin`, { headers: { 'user-agent': 'test' } });
      assert.equal(res.status, 200);
      const requestId = res.headers.get('x-service-request-id');
      await new Promise((r) => setTimeout(r, 100));
      const entry = child.lines.map((l) => { try { return JSON.parse(l); } catch { return null; } })
        .find((e) => e?.msg === 'request' && e.reqId === requestId);
      assert.ok(entry, child.lines.join('\n'));
      assert.equal(entry.method, 'GET');
      assert.equal(entry.route, '/users/:username');
      assert.equal(entry.status, 200);
      assert.equal(typeof entry.durationMs, 'number');
    } finally {
      child.proc.kill('SIGKILL');
      await child.exited;
    }
  });

  test('SIGTERM: stops accepting, finishes the request in flight, exits cleanly', async () => {
    const child = await startMain(dataDir);
    const body = JSON.stringify({ name: 'Drained Admin' });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1', port: child.port, method: 'PATCH', path: '/user',
        headers: { 'user-agent': 'test', authorization: `token ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      }, (res) => {
        let data = '';
        res.on('data', (c) => { data += c; });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 5));
      setTimeout(() => {
        child.proc.kill('SIGTERM');
        setTimeout(async () => {
          const refused = await new Promise<boolean>((r) => {
            const s = net.connect(child.port, '127.0.0.1');
            s.on('connect', () => { s.destroy(); r(false); });
            s.on('error', () => r(true));
          });
          assert.equal(refused, true, 'new connections are refused while draining');
          req.end(body.slice(5));
        }, 300);
      }, 200);
    });
    const res = await response;
    assert.equal(res.status, 200);
    assert.equal(JSON.parse(res.body).name, 'Drained Admin');
    assert.equal(await child.exited, 0);
    // The write was committed: a new process sees it.
    const again = await startMain(dataDir);
    try {
      const me = await (await fetch(`http://127.0.0.1:${again.port}/user`, { headers: { 'user-agent': 'test', authorization: `token ${ADMIN_TOKEN}` } })).json();
      assert.equal(me.name, 'Drained Admin');
    } finally {
      again.proc.kill('SIGTERM');
      assert.equal(await again.exited, 0);
    }
  });

  test('serves HTTPS with WHARF_TLS_CERT and WHARF_TLS_KEY; URLs are https', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-tls-'));
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
    const child = await startMain(dataDir, { WHARF_TLS_CERT: cert, WHARF_TLS_KEY: key });
    try {
      const body = await new Promise<string>((resolve, reject) => {
        https.get({ host: '127.0.0.1', port: child.port, path: '/users/admin', rejectUnauthorized: false, headers: { 'user-agent': 'test' } }, (res) => {
          let data = '';
          res.on('data', (c) => { data += c; });
          res.on('end', () => resolve(data));
        }).on('error', reject);
      });
      assert.equal(JSON.parse(body).url, `https://127.0.0.1:${child.port}/users/admin`);
    } finally {
      child.proc.kill('SIGTERM');
      await child.exited;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
