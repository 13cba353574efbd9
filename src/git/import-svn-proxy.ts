// Subversion over http(s) pinned to the address an import's check judged (issue #22, DNS
// rebinding). svn (serf) resolves a URL's host itself and has no option to be told an
// address, but it does take an HTTP proxy from its configuration directory: this is
// one, on loopback, of Wharf's own, for one import step. It reaches one host and port
// only, the source's, and always at the checked address:
// - https: svn asks to CONNECT host:port; the tunnel goes to the address, and TLS runs
//   end to end between svn and the source (the certificate is checked against the
//   host name as without a proxy);
// - http: svn sends each request with the absolute URL; it is forwarded to the address
//   in origin form, its Host header as svn wrote it.
// Anything for another host or port is refused (403): a redirect, or an absolute URL
// naming another host, leads nowhere.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

export interface PinnedProxy {
  /** The loopback port it listens on. */
  port: number;
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own: not passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade']);

function endToEnd<T extends Record<string, unknown>>(headers: T): T {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name.toLowerCase()) && value !== undefined) out[name] = value;
  return out as T;
}

/** "host:port" as a CONNECT request or a URL names it (an IPv6 host in brackets), lower case. */
function authority(hostname: string, port: number): string {
  return `${hostname.toLowerCase()}:${port}`;
}

/**
 * Starts the proxy: requests for `hostname:port` (hostname as a URL writes it) go to
 * `address` (an IPv4 or bare IPv6 address) on that port; nothing else is reached.
 */
export async function startPinnedProxy(hostname: string, port: number, address: string): Promise<PinnedProxy> {
  const allowed = authority(hostname, port);
  const sockets = new Set<Duplex>();
  const track = (s: Duplex) => { sockets.add(s); s.on('close', () => sockets.delete(s)); };

  const server = http.createServer((req, res) => {
    let url: URL | null = null;
    try {
      url = new URL(req.url ?? '');
    } catch { /* origin form: not a proxy request */ }
    if (!url || url.protocol !== 'http:' || authority(url.hostname, Number(url.port || 80)) !== allowed) {
      req.resume();
      res.writeHead(403, { 'content-type': 'text/plain' }).end('This proxy reaches the import source only.\n');
      return;
    }
    const upstream = http.request({
      host: address, port, method: req.method, path: `${url.pathname}${url.search}`, headers: endToEnd(req.headers), setHost: false, agent: false,
    }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('The import source could not be reached.\n');
      else res.destroy();
    });
    req.pipe(upstream);
  });
  server.on('connection', track);

  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    client.on('error', () => client.destroy());
    if ((req.url ?? '').toLowerCase() !== allowed) {
      client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    const source = net.connect({ host: address, port });
    track(source);
    let connected = false;
    source.on('connect', () => {
      connected = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) source.write(head);
      source.pipe(client);
      client.pipe(source);
    });
    source.on('error', () => {
      if (!connected && client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
      else client.destroy();
    });
    client.on('close', () => source.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
