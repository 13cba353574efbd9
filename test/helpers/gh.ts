// Running Debian's gh 2.23 against Wharf, as test/gh-auth-login.test.ts first did: Wharf
// serves TLS with a throw-away certificate for `localhost`, reached on 127.0.0.1:443
// through a relay to its ephemeral port (gh wants a host name without a port); gh trusts
// the certificate through SSL_CERT_FILE, git through GIT_SSL_CAINFO, and the test's own
// API calls through the certificate given to https.request. `ghUnavailable` says why
// gh cannot run here (gh missing, port 443 not bindable), or is null.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { uniqueLogin } from '../factories/accounts.ts';
import { issueToken } from '../../src/modules/auth/auth.service.ts';
import * as users from '../../src/modules/users/users.service.ts';
import { startTestServer, USER_AGENT, type TestServer, type TestServerOptions } from './server.ts';

export const GH = '/usr/bin/gh';
export const GH_HOST = 'localhost';

/**
 * Listens on 127.0.0.1:443. Test files run side by side and more than one drives gh,
 * which needs that very port: one in use by another file is waited for (its suite lets
 * go of it when it ends), so that neither skips nor fails for the other.
 */
export async function listen443(server: net.Server, waitMs = 10 * 60_000): Promise<void> {
  const until = Date.now() + waitMs;
  for (;;) {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      const onError = (err: NodeJS.ErrnoException) => resolve(err);
      server.once('error', onError);
      server.listen(443, '127.0.0.1', () => { server.off('error', onError); resolve(null); });
    });
    if (!error) return;
    if (error.code !== 'EADDRINUSE' || Date.now() > until) throw error;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Why port 443 cannot be had here at all (not permitted), or null; in use is not a reason (listen443 waits). */
async function port443Problem(): Promise<string | null> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE' ? null : `port 443 on 127.0.0.1 cannot be bound here (${err.code ?? err.message})`));
    probe.listen(443, '127.0.0.1', () => probe.close(() => resolve(null)));
  });
}

export const ghUnavailable: string | null = !fs.existsSync(GH) ? 'gh is not installed (apt-get install gh; .ci/run installs it)'
  : await port443Problem();

export interface RunResult { code: number; stdout: string; stderr: string }

export interface GhServer {
  t: TestServer;
  /** A temporary directory: HOME, GH_CONFIG_DIR, the certificate. */
  dir: string;
  /** The certificate authority's certificate (SSL_CERT_FILE, GIT_SSL_CAINFO, NODE_EXTRA_CA_CERTS). */
  ca: string;
  /** The environment gh and git run in: no token yet (see `env.GH_ENTERPRISE_TOKEN`). */
  env: NodeJS.ProcessEnv;
  /** gh to its end; asynchronously, since the server it talks to lives in this process. */
  gh(args: string[], options?: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv }): Promise<RunResult>;
  /** Any program (git) in the same environment. */
  run(file: string, args: string[], options?: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<RunResult>;
  /** The REST API over TLS at https://localhost, as a token. */
  api<T = any>(method: string, pathname: string, token: string, body?: unknown): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

function runProgram(file: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string, input?: string): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { env, cwd, encoding: 'utf8', timeout: 90_000, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
    });
    child.stdin?.on('error', () => { /* gh exited before reading its input */ });
    child.stdin?.end(input ?? '');
  });
}

/** Wharf over TLS on https://localhost (127.0.0.1:443), with gh's environment. */
export async function startGhServer(options: TestServerOptions = {}): Promise<GhServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-gh-'));
  // The README's recipe (§ gh), word for word: a certificate authority, and a server
  // certificate for the host name signed by it; gh, git and Node trust the authority.
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const caFile = path.join(dir, 'ca.pem');
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '3650',
    '-subj', '/CN=Wharf local CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'server.csr', '-subj', `/CN=${GH_HOST}`);
  fs.writeFileSync(path.join(dir, 'server.ext'), `subjectAltName=DNS:${GH_HOST}\nextendedKeyUsage=serverAuth\n`);
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'cert.pem', '-days', '825', '-extfile', 'server.ext');
  const t = await startTestServer({ ...options, env: { WHARF_TLS_CERT: cert, WHARF_TLS_KEY: key, WHARF_BASE_URL: `https://${GH_HOST}`, ...options.env } });
  const target = (t.server.app.server.address() as net.AddressInfo).port;
  const relay = net.createServer((socket) => {
    const upstream = net.connect(target, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await listen443(relay);
  const ca = fs.readFileSync(caFile);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH, HOME: dir, GH_CONFIG_DIR: path.join(dir, 'gh'), SSL_CERT_FILE: caFile, GIT_SSL_CAINFO: caFile,
    GH_NO_UPDATE_NOTIFIER: '1', NO_COLOR: '1', GH_PROMPT_DISABLED: '1', GH_PAGER: 'cat', PAGER: 'cat', GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'Test Author', GIT_AUTHOR_EMAIL: 'author@example.com',
    GIT_COMMITTER_NAME: 'Test Author', GIT_COMMITTER_EMAIL: 'author@example.com',
  };
  const api = <T>(method: string, pathname: string, token: string, body?: unknown) => new Promise<{ status: number; body: T }>((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = https.request({
      host: '127.0.0.1', servername: GH_HOST, port: 443, method, path: pathname, ca,
      headers: { authorization: `token ${token}`, 'user-agent': USER_AGENT, accept: 'application/vnd.github+json', ...(data ? { 'content-type': 'application/json' } : {}) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: (text ? JSON.parse(text) : null) as T });
      });
    });
    req.on('error', reject);
    req.end(data);
  });
  return {
    t, dir, ca: caFile, env, api,
    gh: (args, o = {}) => runProgram(GH, args, { ...env, ...o.env }, o.cwd, o.input),
    run: (file, args, o = {}) => runProgram(file, args, { ...env, ...o.env }, o.cwd),
    async close() {
      await new Promise<void>((resolve) => relay.close(() => resolve()));
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A user and a token of it, straight through the services: the test's HTTP factories speak plain HTTP. */
export async function createGhUser(s: GhServer, scopes: string[]): Promise<{ login: string; id: number; token: string }> {
  const account = await users.createAccount(s.t.server.ctx, { login: uniqueLogin(), type: 'User' });
  const { token } = await issueToken(s.t.server.ctx, { userId: account.id, scopes, kind: 'personal' });
  return { login: account.login, id: account.id, token };
}
