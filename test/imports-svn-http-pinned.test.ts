// Issue #22, DNS rebinding: a Subversion import over http(s) connects to the address its
// check judged. The source's name answers an allowed address (standing for a public one)
// to Wharf's resolver (a DNS server of the test's own, WHARF_WEBHOOK_DNS_SERVERS) for the
// checks, loopback after; a listener on loopback shares the allowed listener's port, so
// a connection made by looking the name up again would land there. The system resolver
// does not know the name at all: svn reaches the source only through the address
// Wharf hands it (a proxy of Wharf's own, src/git/import-svn-proxy.ts, named in svn's
// configuration). http: svn's requests arrive at the allowed address with their Host
// header; https: the TLS handshake (its server name the source's) arrives there. No
// Subversion server speaks here: the source answers 404, so the import ends in an error,
// after what the test looks at. The proxy itself: it reaches only the source.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { eventually } from './helpers/webhook-receiver.ts';
import { DnsResponder } from './helpers/dns-responder.ts';
import { createUser, type CreatedUser } from './factories/accounts.ts';
import { createRepo } from './factories/repos.ts';
import { startPinnedProxy } from '../src/git/import-svn-proxy.ts';

const run = promisify(execFile);
const ALLOWED = '127.0.0.2';
const NAME = 'svn-http.rebind.test';

interface Seen { method: string; url: string; host: string; agent: string }

/** A TCP listener on host:port (0: any) recording what each connection sent first; `onRequest` answers it. */
async function tcpListener(host: string, port: number, onRequest?: (data: Buffer, socket: net.Socket) => void): Promise<{ server: net.Server; port: number; firsts: Buffer[] }> {
  const firsts: Buffer[] = [];
  const server = net.createServer((socket) => {
    socket.once('data', (data) => {
      firsts.push(data);
      if (onRequest) onRequest(data, socket);
      // A fatal TLS alert (handshake_failure): svn gives up at once (a connection merely cut, it retries for long).
      else socket.end(Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28]));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(port, host, resolve); });
  return { server, port: (server.address() as AddressInfo).port, firsts };
}

/** The allowed listener and a loopback one on the same port. */
async function pair(onRequest?: (data: Buffer, socket: net.Socket) => void) {
  for (let tries = 0; ; tries++) {
    const allowed = await tcpListener(ALLOWED, 0, onRequest);
    try {
      const loopback = await tcpListener('127.0.0.1', allowed.port);
      return { allowed, loopback };
    } catch (err) {
      allowed.server.close();
      if (tries >= 5) throw err;
    }
  }
}

/** Answers every HTTP request 404 (keeping the connection), recording it. */
function http404(seen: Seen[]) {
  return (first: Buffer, socket: net.Socket) => {
    let buffered = first.toString('latin1');
    const answer = () => {
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        const head = buffered.slice(0, end).split('\r\n');
        const [method = '', url = ''] = head[0]!.split(' ');
        const header = (n: string) => head.find((l) => l.toLowerCase().startsWith(`${n}:`))?.slice(n.length + 1).trim() ?? '';
        const length = Number(header('content-length') || 0);
        if (buffered.length < end + 4 + length) return;
        seen.push({ method, url, host: header('host'), agent: header('user-agent') });
        buffered = buffered.slice(end + 4 + length);
        socket.write('HTTP/1.1 404 Not Found\r\ncontent-type: text/plain\r\ncontent-length: 3\r\n\r\nno\n');
      }
    };
    socket.on('data', (d: Buffer) => { buffered += d.toString('latin1'); answer(); });
    answer();
  };
}

describe('Subversion over http(s): pinned to the checked address', () => {
  let t: TestServer;
  let alice: CreatedUser;
  let dns: DnsResponder;
  const seen: Seen[] = [];
  let httpPair: Awaited<ReturnType<typeof pair>>;
  let tlsPair: Awaited<ReturnType<typeof pair>>;
  /** A questions per name: the first two (the import's check when asked for, the step's) answer the allowed address. */
  const answered = new Map<string, number>();

  before(async () => {
    httpPair = await pair(http404(seen));
    tlsPair = await pair();
    dns = new DnsResponder((name, type) => {
      if (!name.endsWith(NAME)) return null;
      if (type !== 'A') return [];
      const n = (answered.get(name) ?? 0) + 1;
      answered.set(name, n);
      return [n <= 2 ? ALLOWED : '127.0.0.1'];
    });
    await dns.start();
    t = await startTestServer({ env: { WHARF_WEBHOOK_ALLOWED_HOSTS: ALLOWED, WHARF_WEBHOOK_DNS_SERVERS: dns.server, WHARF_IMPORT_POLL_MS: '50' } });
    alice = await createUser(t);
  });

  after(async () => {
    await t?.close();
    await dns?.stop();
    for (const p of [httpPair, tlsPair]) for (const l of p ? [p.allowed, p.loopback] : []) l.server.close();
  });

  async function importEnded(host: string, url: string): Promise<Record<string, unknown>> {
    const r = await createRepo(t, alice, { autoInit: false });
    const res = await t.request(`/repos/${r.owner}/${r.repo}/import`, { method: 'PUT', token: alice.token, json: { vcs_url: url, vcs: 'subversion' } });
    assert.equal(res.status, 201, await res.clone().text());
    const ended = await eventually(async () => {
      const body = await (await t.request(`/repos/${r.owner}/${r.repo}/import`, { token: alice.token })).json() as Record<string, unknown>;
      return body.status === 'error' || body.status === 'complete' ? body : undefined;
    }, 60_000, 'the import ended');
    assert.equal(dns.asked(host, 'A'), 2, 'the name was resolved for the two checks only');
    return ended;
  }

  test('the system resolver does not know the name (else this test would show nothing)', async () => {
    await assert.rejects(run('getent', ['hosts', `http.${NAME}`]));
  });

  test('http: svn\'s requests reach the checked address, with the source\'s Host; nothing reaches loopback', async () => {
    const host = `http.${NAME}`;
    const ended = await importEnded(host, `http://${host}:${httpPair.allowed.port}/repo`);
    assert.equal(ended.status, 'error', JSON.stringify(ended));
    assert.ok(seen.length > 0, `svn reached the checked address (${JSON.stringify(ended)})`);
    for (const s of seen) {
      assert.match(s.agent, /^SVN\//);
      assert.equal(s.host, `${host}:${httpPair.allowed.port}`);
      assert.match(s.url, /^\/repo/, 'origin form');
    }
    assert.deepEqual(httpPair.loopback.firsts, []);
  });

  test('https: the TLS handshake for the source\'s name reaches the checked address; nothing reaches loopback', async () => {
    const host = `tls.${NAME}`;
    const ended = await importEnded(host, `https://${host}:${tlsPair.allowed.port}/repo`);
    assert.equal(ended.status, 'error', JSON.stringify(ended));
    assert.ok(tlsPair.allowed.firsts.length > 0, `svn reached the checked address (${JSON.stringify(ended)})`);
    const hello = tlsPair.allowed.firsts[0]!;
    assert.equal(hello[0], 0x16, 'a TLS handshake');
    assert.ok(hello.includes(Buffer.from(host)), 'its server name is the source\'s');
    assert.deepEqual(tlsPair.loopback.firsts, []);
  });
});

describe('the pinned proxy', () => {
  test('forwards the source\'s requests to the address; refuses every other host and port', async () => {
    const got: { url: string; host: string }[] = [];
    const origin = http.createServer((req, res) => { got.push({ url: req.url ?? '', host: req.headers.host ?? '' }); res.end('ok'); });
    await new Promise<void>((resolve) => origin.listen(0, ALLOWED, resolve));
    const port = (origin.address() as AddressInfo).port;
    const proxy = await startPinnedProxy('source.example', port, ALLOWED);
    const viaProxy = (path: string, host: string) => new Promise<{ status: number; body: string }>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: proxy.port, path, headers: { host } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => { body += c.toString(); });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      }).on('error', reject);
    });
    const connect = (authority: string) => new Promise<string>((resolve, reject) => {
      const s = net.connect(proxy.port, '127.0.0.1', () => s.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`));
      s.once('data', (d: Buffer) => { resolve(d.toString().split('\r\n')[0]!); s.destroy(); });
      s.on('error', reject);
    });
    try {
      assert.deepEqual(await viaProxy(`http://source.example:${port}/repo/x?y=1`, `source.example:${port}`), { status: 200, body: 'ok' });
      assert.deepEqual(got, [{ url: '/repo/x?y=1', host: `source.example:${port}` }]);
      for (const other of [`http://elsewhere.example:${port}/`, `http://source.example:${port + 1}/`, `http://${ALLOWED}:${port}/`, '/origin-form']) {
        assert.equal((await viaProxy(other, 'source.example')).status, 403, other);
      }
      assert.equal(got.length, 1, 'nothing else forwarded');
      assert.equal(await connect(`source.example:${port}`), 'HTTP/1.1 200 Connection Established');
      assert.equal(await connect(`elsewhere.example:${port}`), 'HTTP/1.1 403 Forbidden');
      assert.equal(await connect(`source.example:${port + 1}`), 'HTTP/1.1 403 Forbidden');
    } finally {
      await proxy.close();
      origin.closeAllConnections();
      origin.close();
    }
  });
});
