// The SSRF suite (issue #22 § 1): every outbound URL Wharf takes from a user — a
// repository webhook, an organization webhook, a source import — pointed at loopback,
// private, link-local and metadata addresses, written every way a parser may take them
// (literal, short, decimal, hex, octal, unspecified, IPv6, IPv4-mapped, NAT64, DNS
// names) and through a redirect from an allowed host; each must be refused unless
// WHARF_WEBHOOK_ALLOWED_HOSTS allows it.
//
// Only loopback is ever reached: the "forbidden" receiver listens on 127.0.0.1 and
// [::1] and records every request it gets, each URL carrying a tag of its own so a
// request names the attempt that made it; the "allowed" receiver listens on 127.0.0.2,
// the one address Wharf is allowed (a different loopback address, so allowing it does
// not allow the forbidden one), and answers /redirect/… with a redirect to the
// forbidden receiver. Private and link-local literals are judged by Wharf's answer:
// refused before connecting (the API's 422, a delivery's "refused: …" status, an
// import's refusal) passes; anything else means Wharf tried to connect, a MISS, though
// nothing listens there. A DNS name that does not resolve offline (a cloud metadata
// name) is reported, not judged.
//
// DNS rebinding: Wharf resolves names through a DNS server of the suite's own
// (WHARF_WEBHOOK_DNS_SERVERS), which answers every name under rebind.test with the
// allowed address and the loopback one in turn, TTL 0; the allowed receiver also
// listens on 127.0.0.2 at the forbidden receiver's port, so a connection made to a
// second answer would land at the forbidden one. A webhook is pinged twice: the first
// delivery must reach the allowed receiver (connected to the address checked), the
// second be refused (the name now answers loopback), the name resolved once per
// delivery. An import must end without reaching the forbidden receiver (its checks
// resolve the name again before each step, and git, Mercurial, svn:// and Subversion
// over http(s) — through a proxy of Wharf's own, src/git/import-svn-proxy.ts — connect
// to the address checked: test/imports-pinned.test.ts and
// test/imports-svn-http-pinned.test.ts show that). Other names (localhost, this host's
// name) are answered as the system resolver answers them here.
//
// Figures: for each channel and each family of targets, how many were refused and how
// many reached the forbidden receiver (PASS: all refused, none reached); for each
// channel, whether the allowed receiver was reached (PASS: yes).
import http from 'node:http';
import os from 'node:os';
import { lookup } from 'node:dns/promises';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Figure } from './figures.ts';
import { startWharf, type Wharf } from './secrets-wharf.ts';
import { DnsResponder } from '../test/helpers/dns-responder.ts';

const SUITE = 'ssrf';
const USER_AGENT = 'wharf-reliability/1.0';
const ALLOWED_ADDRESS = '127.0.0.2';
const LOGIN = 'ssrf-user';
const ORG = 'ssrf-org';
/** Names the suite's DNS server answers with the allowed address, then loopback, in turn. */
const REBIND_DOMAIN = 'rebind.test';

export interface SsrfOptions {
  serverArgs: string[];
  cwd: string;
  dialect: 'sqlite' | 'postgres';
  databaseUrl?: string;
  /** Channels to try (all by default): 'repo-hook', 'org-hook', 'import'. */
  channels?: Channel[];
  /** How long one attempt may take to settle, ms. */
  settleTimeoutMs?: number;
  progress?: (line: string) => void;
}

export interface SsrfResult {
  figures: Figure[];
  attempts: number;
  seconds: number;
}

export type Channel = 'repo-hook' | 'org-hook' | 'import';
const CHANNEL_NAMES: Record<Channel, string> = {
  'repo-hook': 'repository webhook', 'org-hook': 'organization webhook', import: 'source import',
};

// ---------------------------------------------------------------- targets

type Family = 'loopback IPv4 forms' | 'loopback IPv6 forms' | 'loopback DNS names' | 'redirect to loopback'
  | 'private' | 'link-local and metadata' | 'DNS rebinding';

interface Target {
  family: Family;
  label: string;
  /** The URL for this attempt (tag: the path that names it). */
  url(tag: string): string;
}

function targets(forbiddenPort: number, allowedPort: number, hostNames: string[], rebinding: boolean): Target[] {
  const p = forbiddenPort;
  const at = (family: Family, label: string, host: string): Target =>
    ({ family, label, url: (tag) => `http://${host}:${p}/t/${tag}` });
  const list: Target[] = [
    at('loopback IPv4 forms', '127.0.0.1', '127.0.0.1'),
    at('loopback IPv4 forms', '127.1 (short)', '127.1'),
    at('loopback IPv4 forms', '2130706433 (decimal)', '2130706433'),
    at('loopback IPv4 forms', '0x7f000001 (hex)', '0x7f000001'),
    at('loopback IPv4 forms', '0177.0.0.1 (octal)', '0177.0.0.1'),
    at('loopback IPv4 forms', '0.0.0.0 (unspecified)', '0.0.0.0'),
    at('loopback IPv6 forms', '[::1]', '[::1]'),
    at('loopback IPv6 forms', '[::ffff:127.0.0.1] (IPv4-mapped)', '[::ffff:127.0.0.1]'),
    at('loopback IPv6 forms', '[::ffff:7f00:1] (IPv4-mapped, hex)', '[::ffff:7f00:1]'),
    at('loopback IPv6 forms', '[::127.0.0.1] (IPv4-compatible)', '[::127.0.0.1]'),
    at('loopback IPv6 forms', '[64:ff9b::7f00:1] (NAT64)', '[64:ff9b::7f00:1]'),
    at('loopback IPv6 forms', '[::] (unspecified)', '[::]'),
    ...hostNames.map((h) => at('loopback DNS names', h, h)),
    {
      family: 'redirect to loopback', label: `302 from allowed ${ALLOWED_ADDRESS} to 127.0.0.1`,
      url: (tag) => `http://${ALLOWED_ADDRESS}:${allowedPort}/redirect/302/t/${tag}`,
    },
    {
      family: 'redirect to loopback', label: `307 from allowed ${ALLOWED_ADDRESS} to 127.0.0.1`,
      url: (tag) => `http://${ALLOWED_ADDRESS}:${allowedPort}/redirect/307/t/${tag}`,
    },
    at('private', '10.255.255.1', '10.255.255.1'),
    at('private', '172.16.255.1', '172.16.255.1'),
    at('private', '192.168.255.1', '192.168.255.1'),
    at('private', '100.64.255.1 (carrier-grade NAT)', '100.64.255.1'),
    at('private', '[fd00::1] (unique local)', '[fd00::1]'),
    at('private', '[::ffff:10.255.255.1] (IPv4-mapped)', '[::ffff:10.255.255.1]'),
    at('private', '167772161 (decimal 10.0.0.1)', '167772161'),
    at('link-local and metadata', '169.254.169.254', '169.254.169.254'),
    at('link-local and metadata', '2852039166 (decimal 169.254.169.254)', '2852039166'),
    at('link-local and metadata', '0xa9fea9fe (hex 169.254.169.254)', '0xa9fea9fe'),
    at('link-local and metadata', '[::ffff:169.254.169.254] (IPv4-mapped)', '[::ffff:169.254.169.254]'),
    at('link-local and metadata', '[fe80::1]', '[fe80::1]'),
    at('link-local and metadata', '[fd00:ec2::254] (EC2 IPv6 metadata)', '[fd00:ec2::254]'),
  ];
  // The allowed receiver listens at the forbidden one's port too (only then can a second
  // resolution land at the forbidden one); a name of its own per attempt.
  for (let i = 1; rebinding && i <= 3; i++) {
    list.push({
      family: 'DNS rebinding', label: `<tag>.${REBIND_DOMAIN} #${i}: ${ALLOWED_ADDRESS}, then 127.0.0.1 (TTL 0)`,
      url: (tag) => `http://${tag}.${REBIND_DOMAIN}:${p}/t/${tag}`,
    });
  }
  return list;
}

/** Names of this machine that resolve to loopback only (from /etc/hosts): DNS-name targets that need no network; with their addresses. */
async function loopbackNames(): Promise<Map<string, string[]>> {
  const names = ['localhost', 'LOCALHOST', 'localhost.', os.hostname()];
  const out = new Map<string, string[]>();
  for (const name of [...new Set(names)]) {
    try {
      const all = await lookup(name, { all: true });
      if (all.length > 0 && all.every((a) => a.address === '127.0.0.1' || a.address === '::1' || a.address.startsWith('127.'))) out.set(name, all.map((a) => a.address));
    } catch { /* not resolvable here */ }
  }
  return out;
}

/**
 * The suite's DNS server: names under rebind.test answer the allowed address and loopback
 * in turn (A; no AAAA), the loopback names what the system resolver said of them.
 */
function dnsServer(names: Map<string, string[]>): DnsResponder {
  const turns = new Map<string, number>();
  const known = new Map([...names].map(([n, a]) => [n.toLowerCase().replace(/\.$/, ''), a]));
  return new DnsResponder((name, type) => {
    if (name.endsWith(`.${REBIND_DOMAIN}`)) {
      if (type !== 'A') return [];
      const turn = (turns.get(name) ?? 0) + 1;
      turns.set(name, turn);
      return [turn % 2 === 1 ? ALLOWED_ADDRESS : '127.0.0.1'];
    }
    const addresses = known.get(name);
    return addresses ? addresses.filter((a) => (type === 'A' ? !a.includes(':') : a.includes(':'))) : null;
  });
}

// ---------------------------------------------------------------- receivers

interface Hit { tag: string; method: string; url: string; via: string }

/** Records every request; `redirect` answers /redirect/<code>/<rest> with a redirect to `redirect`/<rest>. */
class Receiver {
  readonly hits: Hit[] = [];
  private readonly servers: http.Server[] = [];
  port = 0;
  redirectTo: string | null = null;

  constructor(private readonly name: string) {}

  async listen(hosts: string[]): Promise<void> {
    for (let tries = 0; ; tries++) {
      try {
        for (const host of hosts) await this.listenOne(host, this.port);
        return;
      } catch (err) {
        // The port the first address got may be taken on the next: start again.
        await this.close();
        this.port = 0;
        if (tries >= 5) throw err;
      }
    }
  }

  private listenOne(host: string, port: number): Promise<void> {
    const server = http.createServer((req, res) => {
      const url = req.url ?? '/';
      const tag = /\/t\/([0-9a-z-]+)/.exec(url)?.[1] ?? '';
      this.hits.push({ tag, method: req.method ?? '', url, via: `${this.name} ${host}` });
      req.resume();
      const redirect = /^\/redirect\/(30[1278])(\/.*)$/.exec(url);
      if (redirect && this.redirectTo) {
        res.writeHead(Number(redirect[1]), { location: `${this.redirectTo}${redirect[2]}` }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    this.servers.push(server);
    return new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        this.port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  hitsFor(tag: string): Hit[] {
    return this.hits.filter((h) => h.tag === tag);
  }

  async close(): Promise<void> {
    const servers = this.servers.splice(0);
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => {
      s.closeAllConnections();
      s.close(() => resolve());
    })));
  }
}

// ---------------------------------------------------------------- HTTP

async function call(base: string, token: string, method: string, pathname: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${base}${pathname}`, {
    method,
    headers: {
      'user-agent': USER_AGENT, authorization: `token ${token}`, accept: 'application/vnd.github+json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let json: unknown = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = text; }
  return { status: res.status, json };
}

async function callOk(base: string, token: string, method: string, pathname: string, body?: unknown): Promise<Record<string, unknown>> {
  const a = await call(base, token, method, pathname, body);
  if (a.status < 200 || a.status >= 300) throw new Error(`${method} ${pathname} answered ${a.status}: ${JSON.stringify(a.json).slice(0, 300)}`);
  return (a.json ?? {}) as Record<string, unknown>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- attempts

/** What Wharf did with one URL on one channel. */
interface Outcome {
  /** Refused before connecting: at the API, or the attempt recorded as refused. */
  refused: boolean;
  /** The attempt ended (a delivery recorded, an import stopped), whatever the ending. */
  settled: boolean;
  /** Wharf's own words (status, message). */
  said: string;
}

interface Attempt { channel: Channel; target: Target; tag: string; outcome: Outcome }

/** A webhook on `hooksPath` to `url`, pinged; refused at create, or its delivery's status. */
async function tryHook(w: Wharf, token: string, hooksPath: string, url: string, timeoutMs: number): Promise<Outcome> {
  const created = await call(w.base, token, 'POST', hooksPath, { name: 'web', active: true, events: ['push'], config: { url, content_type: 'json' } });
  if (created.status === 422) return { refused: true, settled: true, said: `422 at create: ${messageOf(created.json)}` };
  if (created.status !== 201) throw new Error(`POST ${hooksPath} answered ${created.status}: ${JSON.stringify(created.json).slice(0, 300)}`);
  const id = (created.json as { id: number }).id;
  try {
    await callOk(w.base, token, 'POST', `${hooksPath}/${id}/pings`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const list = await callOk(w.base, token, 'GET', `${hooksPath}/${id}/deliveries`) as unknown as { status: string; status_code: number }[];
      const done = list.find((d) => d.status_code > 0 || !/^(pending|queued|)$/i.test(d.status ?? ''));
      if (done) return { refused: done.status_code === 0 && /^refused/i.test(done.status), settled: true, said: `delivery ${done.status_code}: ${done.status}` };
      if (Date.now() > deadline) return { refused: false, settled: false, said: `no delivery settled within ${timeoutMs} ms (${JSON.stringify(list).slice(0, 200)})` };
      await sleep(100);
    }
  } finally {
    await call(w.base, token, 'DELETE', `${hooksPath}/${id}`);
  }
}

/**
 * A webhook to a rebinding name, pinged twice: the first delivery must reach the allowed
 * receiver (the address checked), the second be refused (the name now answers loopback),
 * with one resolution each.
 */
async function tryRebindingHook(w: Wharf, token: string, hooksPath: string, url: string, tag: string, allowed: Receiver,
  dns: DnsResponder, timeoutMs: number): Promise<Outcome> {
  const created = await call(w.base, token, 'POST', hooksPath, { name: 'web', active: false, events: ['push'], config: { url, content_type: 'json' } });
  if (created.status !== 201) throw new Error(`POST ${hooksPath} answered ${created.status}: ${JSON.stringify(created.json).slice(0, 300)}`);
  const id = (created.json as { id: number }).id;
  const name = new URL(url).hostname;
  try {
    await callOk(w.base, token, 'PATCH', `${hooksPath}/${id}`, { active: true });
    const said: string[] = [];
    for (let n = 1; n <= 2; n++) {
      await callOk(w.base, token, 'POST', `${hooksPath}/${id}/pings`);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const list = await callOk(w.base, token, 'GET', `${hooksPath}/${id}/deliveries`) as unknown as { status: string; status_code: number }[];
        const done = list.filter((d) => d.status_code > 0 || !/^(pending|queued|)$/i.test(d.status ?? ''));
        if (done.length >= n) {
          said.push(`delivery ${n}: ${done[0]!.status_code} ${done[0]!.status}`);
          break;
        }
        if (Date.now() > deadline) return { refused: false, settled: false, said: `${said.join('; ')}; delivery ${n} not settled within ${timeoutMs} ms` };
        await sleep(100);
      }
    }
    const list = await callOk(w.base, token, 'GET', `${hooksPath}/${id}/deliveries`) as unknown as { status: string; status_code: number }[];
    const [second, first] = list;
    const lookups = dns.asked(name, 'A');
    said.push(`${lookups} lookups`);
    const asExpected = first?.status_code === 200 && allowed.hitsFor(tag).length === 1
      && second?.status_code === 0 && /^refused/i.test(second.status) && lookups === 2;
    return { refused: asExpected, settled: true, said: said.join('; ') };
  } finally {
    await call(w.base, token, 'DELETE', `${hooksPath}/${id}`);
  }
}

const IMPORT_SETTLED = /^(complete|error|auth_failed|detection_needs_auth|detection_found_nothing|detection_found_multiple)$/;

/** A source import from `url` into a new repository; refused at the API, or how it ended. */
async function tryImport(w: Wharf, token: string, tag: string, url: string, timeoutMs: number): Promise<Outcome> {
  const repo = `imp-${tag}`;
  await callOk(w.base, token, 'POST', '/user/repos', { name: repo });
  const started = await call(w.base, token, 'PUT', `/repos/${LOGIN}/${repo}/import`, { vcs_url: url });
  if (started.status === 422) return { refused: true, settled: true, said: `422: ${messageOf(started.json)}` };
  if (started.status !== 201) throw new Error(`PUT import answered ${started.status}: ${JSON.stringify(started.json).slice(0, 300)}`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const imp = await callOk(w.base, token, 'GET', `/repos/${LOGIN}/${repo}/import`) as { status: string; message?: string; failed_step?: string | null; error_message?: string | null };
    if (IMPORT_SETTLED.test(imp.status)) {
      const words = `${imp.status}${imp.failed_step ? ` at ${imp.failed_step}` : ''}: ${imp.error_message ?? imp.message ?? ''}`;
      return { refused: /refused|may not reach/i.test(words), settled: true, said: words };
    }
    if (Date.now() > deadline) return { refused: false, settled: false, said: `still ${imp.status} after ${timeoutMs} ms` };
    await sleep(150);
  }
}

function messageOf(json: unknown): string {
  if (json && typeof json === 'object') {
    const j = json as { message?: string; errors?: { message?: string }[] };
    return [j.message, ...(j.errors ?? []).map((e) => e.message)].filter(Boolean).join('; ');
  }
  return String(json);
}

// ---------------------------------------------------------------- the suite

export async function runSsrf(o: SsrfOptions): Promise<SsrfResult> {
  const progress = o.progress ?? (() => {});
  const channels = o.channels ?? ['repo-hook', 'org-hook', 'import'];
  const settle = o.settleTimeoutMs ?? 20_000;
  const started = Date.now();
  const suite = `${SUITE} (${o.dialect})`;

  const forbidden = new Receiver('forbidden');
  await forbidden.listen(['127.0.0.1', '::1']);
  const allowed = new Receiver('allowed');
  // At the forbidden receiver's port, for DNS rebinding (another port if that one is taken here).
  allowed.port = forbidden.port;
  await allowed.listen([ALLOWED_ADDRESS]);
  allowed.redirectTo = `http://127.0.0.1:${forbidden.port}`;
  const names = await loopbackNames();
  const dns = dnsServer(names);
  await dns.start();
  let w: Wharf | null = null;
  try {
    w = await startWharf({
      serverArgs: o.serverArgs, cwd: o.cwd, dialect: o.dialect, databaseUrl: o.databaseUrl, name: 'ssrf',
      env: {
        LOG_LEVEL: 'warn',
        WHARF_WEBHOOK_ALLOWED_HOSTS: ALLOWED_ADDRESS,
        WHARF_WEBHOOK_DNS_SERVERS: dns.server,
        WHARF_WEBHOOK_TIMEOUT_MS: '3000',
        WHARF_WEBHOOK_MAX_ATTEMPTS: '1',
        WHARF_WEBHOOK_POLL_MS: '100',
        WHARF_IMPORT_POLL_MS: '100',
        WHARF_IMPORT_STEP_TIMEOUT_SECONDS: '15',
      },
    });
    await callOk(w.base, w.adminToken, 'POST', '/admin/users', { login: LOGIN, email: `${LOGIN}@example.com` });
    const auth = await callOk(w.base, w.adminToken, 'POST', `/admin/users/${LOGIN}/authorizations`, { scopes: ['repo', 'user', 'admin:repo_hook', 'admin:org', 'admin:org_hook'] });
    const token = String(auth.token);
    await callOk(w.base, w.adminToken, 'POST', '/admin/organizations', { login: ORG, admin: LOGIN });
    await callOk(w.base, token, 'POST', '/user/repos', { name: 'hooked', auto_init: true });

    const list = targets(forbidden.port, allowed.port, [...names.keys()], allowed.port === forbidden.port);
    progress(`${suite}: Wharf up on ${w.base} at ${((Date.now() - started) / 1000).toFixed(1)} s; ${list.length} targets × ${channels.length} channels; forbidden receiver on 127.0.0.1/[::1]:${forbidden.port}, allowed on ${ALLOWED_ADDRESS}:${allowed.port}`);
    const attempts: Attempt[] = [];
    const allowedReached = new Map<Channel, { reached: boolean; said: string }>();
    for (const channel of channels) {
      const hooksPath = channel === 'repo-hook' ? `/repos/${LOGIN}/hooked/hooks` : `/orgs/${ORG}/hooks`;
      const attemptOne = (tag: string, url: string, family?: Family): Promise<Outcome> => channel === 'import'
        ? tryImport(w!, token, tag, url, settle)
        : family === 'DNS rebinding'
          ? tryRebindingHook(w!, token, hooksPath, url, tag, allowed, dns, settle)
          : tryHook(w!, token, hooksPath, url, settle);
      // Several at once: each waits on a delivery or an import, not on the CPU.
      const queue = [...list];
      const worker = async () => {
        for (let t = queue.shift(); t; t = queue.shift()) {
          const tag = `${channel}-${randomBytes(4).toString('hex')}`;
          const outcome = await attemptOne(tag, t.url(tag), t.family);
          attempts.push({ channel, target: t, tag, outcome });
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      const okTag = `${channel}-ok-${randomBytes(4).toString('hex')}`;
      const ok = await attemptOne(okTag, `http://${ALLOWED_ADDRESS}:${allowed.port}/ok/t/${okTag}`);
      allowedReached.set(channel, { reached: allowed.hitsFor(okTag).length > 0, said: ok.said });
      progress(`${suite}: ${CHANNEL_NAMES[channel]} done at ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    // A late request (a retry, a slow tool) still counts.
    await sleep(500);
    return { figures: figuresOf(suite, channels, attempts, forbidden, allowedReached), attempts: attempts.length, seconds: (Date.now() - started) / 1000 };
  } finally {
    await w?.stop();
    await forbidden.close();
    await allowed.close();
    await dns.stop();
  }
}

const FAMILIES: Family[] = ['loopback IPv4 forms', 'loopback IPv6 forms', 'loopback DNS names', 'redirect to loopback', 'private', 'link-local and metadata', 'DNS rebinding'];

function figuresOf(suite: string, channels: Channel[], attempts: Attempt[], forbidden: Receiver,
  allowedReached: Map<Channel, { reached: boolean; said: string }>): Figure[] {
  const figures: Figure[] = [];
  for (const channel of channels) {
    for (const family of FAMILIES) {
      const mine = attempts.filter((a) => a.channel === channel && a.target.family === family);
      if (mine.length === 0) continue;
      const reached = mine.filter((a) => forbidden.hitsFor(a.tag).length > 0);
      // A redirect from an allowed host is fine to receive; following it is not. A
      // rebinding name's import must end without reaching loopback (its webhook: see
      // tryRebindingHook). The rest must be refused before any connection.
      const redirect = family === 'redirect to loopback';
      const rebinding = family === 'DNS rebinding' && channel === 'import';
      const refused = mine.filter((a) => !reached.includes(a) && (redirect || rebinding ? a.outcome.settled : a.outcome.refused));
      const bad = mine.filter((a) => !refused.includes(a));
      const verb = redirect ? 'not followed' : family === 'DNS rebinding'
        ? (channel === 'import' ? 'ended without reaching loopback' : 'connected to the address checked, then refused') : 'refused';
      figures.push({
        suite, name: `${CHANNEL_NAMES[channel]}: ${family} ${verb} / reached`,
        value: `${refused.length} of ${mine.length} / ${reached.length}`,
        pass: bad.length === 0,
        detail: bad.slice(0, 6).map((a) => {
          const hits = forbidden.hitsFor(a.tag);
          return `${a.target.label}: ${hits.length ? `REACHED (${hits.map((h) => `${h.method} ${h.url}`).join(', ')})` : 'not refused'} — Wharf: ${a.outcome.said}`;
        }).join('\n') + (bad.length > 6 ? `\n… and ${bad.length - 6} more` : ''),
      });
    }
    const ok = allowedReached.get(channel);
    if (ok) {
      figures.push({
        suite, name: `${CHANNEL_NAMES[channel]}: allowed host (WHARF_WEBHOOK_ALLOWED_HOSTS) reached`,
        value: ok.reached ? 'yes' : 'no', pass: ok.reached, detail: `Wharf: ${ok.said}`,
      });
    }
  }
  const stray = forbidden.hits.filter((h) => !attempts.some((a) => a.tag === h.tag));
  figures.push({
    suite, name: 'requests at the forbidden receiver not tied to an attempt', value: String(stray.length), pass: stray.length === 0,
    detail: stray.slice(0, 5).map((h) => `${h.method} ${h.url} (${h.via})`).join('\n'),
  });
  return figures;
}
