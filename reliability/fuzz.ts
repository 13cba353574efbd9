// The fuzz suite (issue #22 § 1): Wharf as a real child process, sent malformed requests
// generated from its own route table and schemas (reliability/fuzz-generate.ts) over
// every route, and among them malformed and abusive GraphQL calls (reliability/fuzz-graphql.ts);
// the path parameters resolve to real objects (reliability/fuzz-fixtures.ts).
//
// Figures:
//   - 5xx answers, and requests with no answer (reset, or none within the time-out): 0.
//   - partial writes: 0. Requests go in batches; between batches the stored state is
//     fingerprinted (reliability/fuzz-state.ts: every table, every repository's refs).
//     A batch in which every write was refused (4xx) must leave the state as it was; if
//     it did not, its requests are sent again one at a time with a fingerprint after
//     each, and the one that changes the state while refused is the partial write. In
//     a batch in which some write was accepted (the damage left a valid request, which
//     changes the state rightly), the state is let settle (the background work it
//     caused), then the batch's refused writes are sent again, alone, and that second
//     sending must change nothing. A request whose connection was closed or reset is
//     sent again once on a connection of its own (counted); only one unanswered there
//     is a failure.
//   - memory flat: the child's RSS (VmRSS) sampled every second, Wharf running with a
//     bounded old-generation heap (FuzzOptions.heapMb: else V8 grows the heap instead
//     of collecting, and RSS measures that); the median of the last quarter of the run
//     against the median of the second quarter (the first is warm-up: code compiled,
//     caches filled). Medians, because the heap saw-tooths between collections; PASS
//     when it grew by at most 25 % and at most 96 MB. A leak of 1 KB per request would
//     be ~50 MB over half of 100,000 requests (over 25 % of a ~330 MB process), and
//     with the bound it ends in a crash, which the 5xx figure counts.
//   - GraphQL: the calls past a bound (depth, aliases, page size, fragment cycles,
//     selections) answered with GraphQL errors: all of them.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort, rssBytes, startChild, waitForHttp, type Child } from '../bench/children.ts';
import type { Figure } from './figures.ts';
import { fixturesIntact, seedFixtures, type Api } from './fuzz-fixtures.ts';
import { generate, KINDS, type FuzzRequest } from './fuzz-generate.ts';
import { generateGraphQL, LIMIT_KINDS, type GraphQLRequest } from './fuzz-graphql.ts';
import { readRouteTable, type FuzzRoute } from './fuzz-routes.ts';
import { changed, postgresState, sqliteState, type Snapshot, type StateReader } from './fuzz-state.ts';
import { createSchema, dropSchema, inheritedEnv } from './wharf-env.ts';

const SUITE = 'fuzz';
const USER_AGENT = 'wharf-reliability-fuzz/1.0';

export interface FuzzOptions {
  /** node's arguments that start Wharf (the bundle, or src/main.ts through tsx). */
  serverArgs: string[];
  cwd: string;
  dialect: 'sqlite' | 'postgres';
  /** PostgreSQL: the database in which a fresh schema is made (and dropped after). */
  databaseUrl?: string;
  /** REST requests [100,000]; never fewer than there are routes. */
  requests?: number;
  /** GraphQL calls [a tenth of requests]. */
  graphqlRequests?: number;
  /** The generator's seed [1]; the same seed, count and route table give the same requests. */
  seed?: number;
  /** Requests in flight at once [16]. */
  concurrency?: number;
  /** Requests between two state fingerprints [500]. */
  batchSize?: number;
  /** A request with no answer after this long is a failure, ms [30,000]. */
  timeoutMs?: number;
  /**
   * Wharf's old-generation heap, MB (node --max-old-space-size) [256]. Unbounded, V8
   * grows its heap under a high allocation rate rather than collect (RSS rose from
   * 340 to 730 MB in 8,000 requests, and stays at ~330 MB with the bound): RSS then
   * measures that policy, not a leak. Bounded, garbage is collected, and a leak shows
   * as growth up to the bound and then as a crash (no answers). 0 leaves it unbounded.
   */
  heapMb?: number;
  startTimeoutMs?: number;
  progress?: (line: string) => void;
}

export interface FuzzResult {
  dialect: string;
  figures: Figure[];
  requests: number;
  graphqlRequests: number;
  routes: number;
  seconds: number;
  /** Answers by status class and by kind, for the report. */
  statuses: Record<string, number>;
}

interface Outcome { req: FuzzRequest | GraphQLRequest; status: number | null; error: string | null; body: string; location: string | null }

// ---------------------------------------------------------------- HTTP

interface Answer { status: number | null; error: string | null; body: string; location: string | null }

/** The last request each keep-alive socket carried: what a server-side close followed. */
const lastOnSocket = new WeakMap<object, string>();
/** Requests that failed on a reused keep-alive socket and were sent again on a new one. */
const resent: string[] = [];

type Sendable = { method: string; path: string; headers: Record<string, string>; body?: Buffer };

/** Keeps the first `keep` bytes of the answer (the fuzz looks at the start of errors; the fixtures need all). */
function sendOnce(agent: http.Agent | false, port: number, req: Sendable, timeoutMs: number, keep: number): Promise<Answer & { reused: boolean; before: string | null }> {
  return new Promise((resolve) => {
    let settled = false;
    let reused = false;
    let before: string | null = null;
    const t0 = Date.now();
    const done = (v: Answer) => {
      if (settled) return;
      settled = true;
      // What a failure needs to be understood: the connection's history and the time it took.
      if (v.status === null) v.error = `${v.error} after ${Date.now() - t0} ms on a ${reused ? `reused connection (after ${before ?? '?'})` : 'new connection'}`;
      resolve({ ...v, reused, before });
    };
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body) headers['content-length'] = req.body.length;
    let r: http.ClientRequest;
    try {
      r = http.request({ host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const location = typeof res.headers.location === 'string' ? res.headers.location : null;
        res.on('data', (c: Buffer) => { if (size < keep) chunks.push(c); size += c.length; });
        res.on('end', () => done({ status: res.statusCode ?? null, error: null, body: Buffer.concat(chunks).subarray(0, keep).toString('utf8'), location }));
        res.on('error', (e) => done({ status: res.statusCode ?? null, error: null, body: `(body cut: ${e.message})`, location }));
      });
    } catch (err) {
      // The client itself refuses (a header it will not send): not the server's doing.
      resolve({ status: -1, error: (err as Error).message, body: '', location: null, reused: false, before: null });
      return;
    }
    r.on('socket', (socket) => {
      reused = r.reusedSocket;
      before = lastOnSocket.get(socket) ?? null;
      lastOnSocket.set(socket, `${req.method} ${req.path.slice(0, 120)}`);
    });
    r.setTimeout(timeoutMs, () => { r.destroy(new Error(`no answer within ${timeoutMs} ms`)); });
    r.on('error', (e) => done({ status: null, error: e.message, body: '', location: null }));
    r.end(req.body);
  });
}

/**
 * One request. A keep-alive socket the server closed between two requests fails the
 * next one as soon as it is written (Node's documentation: retry then), and the agent
 * does not always know it is closed when it hands it out: a request whose connection
 * was reset or closed is sent again once on a connection of its own, and counted. Only
 * a request the server does not answer there either is a failure.
 */
async function send(agent: http.Agent, port: number, req: Sendable, timeoutMs: number, keep = 4096): Promise<Answer> {
  const a = await sendOnce(agent, port, req, timeoutMs, keep);
  if (a.status === null && /ECONNRESET|socket hang up|EPIPE/.test(a.error ?? '')) {
    resent.push(`${req.method} ${req.path.slice(0, 120)}: ${a.error}`);
    if (process.env.RELIABILITY_FUZZ_TRACE) console.error('RESENT', resent.at(-1));
    const b = await sendOnce(false, port, req, timeoutMs, keep);
    if (b.status === null) b.error = `${b.error}; before that ${a.error}`;
    return b;
  }
  return a;
}

/** Runs the requests with `concurrency` in flight; outcomes in the requests' order. */
async function runAll<T extends { method: string; path: string; headers: Record<string, string>; body?: Buffer }>(
  agent: http.Agent, port: number, reqs: T[], concurrency: number, timeoutMs: number,
): Promise<({ req: T } & Answer)[]> {
  const out = new Array<{ req: T } & Answer>(reqs.length);
  let next = 0;
  const worker = async () => {
    while (next < reqs.length) {
      const i = next++;
      const a = await send(agent, port, reqs[i]!, timeoutMs);
      out[i] = { req: reqs[i]!, ...a };
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, reqs.length) }, worker));
  return out;
}

// ---------------------------------------------------------------- the suite

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function sample(items: readonly string[], max = 5): string {
  return items.slice(0, max).join('\n') + (items.length > max ? `\n… and ${items.length - max} more` : '');
}

function describe(o: Outcome): string {
  const body = o.req.body ? o.req.body.subarray(0, 100).toString('utf8').replace(/\s+/g, ' ') + (o.req.body.length > 100 ? `… (${o.req.body.length} bytes)` : '') : '';
  const answer = o.status === null ? `no answer: ${o.error}` : `${o.status} ${o.body.slice(0, 160).replace(/\s+/g, ' ')}`;
  return `#${o.req.n} [${o.req.kind}] ${o.req.method} ${o.req.path.slice(0, 160)}${body ? ` body ${body}` : ''} → ${answer}`;
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const MB = 1024 * 1024;
/** Runs shorter than this do not judge memory (see the memory figure). */
const MIN_MEMORY_REQUESTS = 10_000;

export async function runFuzz(o: FuzzOptions): Promise<FuzzResult> {
  const progress = o.progress ?? (() => {});
  const routes: FuzzRoute[] = await readRouteTable();
  // At least one request per route, however many routes there are by now.
  const total = Math.max(o.requests ?? 100_000, routes.length);
  const graphqlTotal = o.graphqlRequests ?? Math.round(total / 10);
  const seed = o.seed ?? 1;
  const concurrency = o.concurrency ?? 16;
  const batchSize = o.batchSize ?? 500;
  const timeoutMs = o.timeoutMs ?? 30_000;
  const started = Date.now();

  resent.length = 0;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-fuzz-'));
  const dataDir = path.join(work, 'data');
  const adminToken = `whp_${randomBytes(18).toString('hex')}`;
  let schema: string | undefined;
  if (o.dialect === 'postgres') schema = await createSchema(o.databaseUrl, 'fuzz');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = inheritedEnv();
  Object.assign(env, {
    PORT: String(port), HOST: '127.0.0.1', WHARF_DATA_DIR: dataDir, WHARF_ADMIN_TOKEN: adminToken, WHARF_SSH_PORT: '0',
    LOG_LEVEL: 'fatal', NODE_ENV: process.env.NODE_ENV ?? 'production',
    // Limits that would refuse the fuzz's volume before its content is looked at.
    WHARF_RATE_LIMIT_AUTHENTICATED: '1000000000', WHARF_RATE_LIMIT_UNAUTHENTICATED: '1000000000',
    WHARF_RATE_LIMIT_SEARCH_AUTHENTICATED: '1000000000', WHARF_RATE_LIMIT_SEARCH_UNAUTHENTICATED: '1000000000',
    WHARF_LOGIN_MAX_FAILURES: '1000000000',
    // Deliveries to the fixture's hook fail fast and are not retried for long.
    WHARF_WEBHOOK_TIMEOUT_MS: '1000', WHARF_WEBHOOK_MAX_ATTEMPTS: '1',
    // The fixture's hook points at 127.0.0.1:9, refused when saved unless allowed.
    WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    ...(o.dialect === 'postgres' ? { DATABASE_URL: o.databaseUrl, WHARF_DATABASE_SCHEMA: schema } : {}),
  });
  let child: Child | null = null;
  let state: StateReader | null = null;
  let sampler: NodeJS.Timeout | undefined;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  try {
    const heapMb = o.heapMb ?? 256;
    child = startChild('wharf (fuzz)', [...(heapMb > 0 ? [`--max-old-space-size=${heapMb}`] : []), ...o.serverArgs], { cwd: o.cwd, env });
    await waitForHttp(child, `${base}/meta`, o.startTimeoutMs ?? 120_000);
    const pid = child.process.pid;
    const api: Api = async (method, pathname, body, token) => {
      const a = await send(agent, port, {
        method, path: pathname,
        headers: { 'user-agent': USER_AGENT, accept: 'application/vnd.github+json', authorization: `token ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
      }, timeoutMs, 64 * MB);
      let json: unknown = null;
      try { json = a.body ? JSON.parse(a.body) : null; } catch { /* not JSON */ }
      return { status: a.status ?? 0, json };
    };
    let generation = 1;
    let { fixtures, token } = await seedFixtures(api, adminToken, generation);
    state = o.dialect === 'postgres' ? await postgresState(o.databaseUrl!, schema!, dataDir) : sqliteState(dataDir);
    const settle = async (): Promise<Snapshot> => {
      // Background work an accepted write caused (deliveries, fan-out, indexing) runs on
      // for a while: the baseline is a state that held still for 300 ms (or 5 s passed).
      let last = await state!.snapshot();
      const deadline = Date.now() + 5000;
      for (;;) {
        await sleep(300);
        const now = await state!.snapshot();
        if (changed(last, now).length === 0 || Date.now() > deadline) return now;
        last = now;
      }
    };
    // The fingerprint must see a write at all: one label made between two of them.
    const beforeCanary = await settle();
    await api('POST', `/repos/${fixtures.owner}/${fixtures.repo}/labels`, { name: 'fuzz-canary', color: '00ff00' }, token);
    let baseline = await settle();
    const canary = changed(beforeCanary, baseline);
    progress(`${SUITE} (${o.dialect}): Wharf up on ${base}; ${routes.length} routes, ${total} requests and ${graphqlTotal} GraphQL calls, seed ${seed}`);

    // ------------------------------------------------------------ memory samples
    const rss: { at: number; bytes: number }[] = [];
    let done = 0;
    const allTotal = total + graphqlTotal;
    sampler = setInterval(() => { const b = rssBytes(pid); if (b !== null) rss.push({ at: done / allTotal, bytes: b }); }, 1000);

    const failures: string[] = [];
    const graphqlFailures: string[] = [];
    const partial: string[] = [];
    const statuses: Record<string, number> = {};
    const countStatus = (oc: Outcome) => {
      const key = oc.status === null ? 'no answer' : oc.status === -1 ? 'not sent' : `${Math.floor(oc.status / 100)}xx`;
      statuses[key] = (statuses[key] ?? 0) + 1;
    };
    let batchesChecked = 0;
    let batchesAccepted = 0;
    let requestsChecked = 0;
    let reseeds = 0;
    let resentRequests = 0;
    const lostFixtures: string[] = [];
    const isWrite = (m: string) => m !== 'GET' && m !== 'HEAD';
    /**
     * A write the server took: a 2xx, or a redirect other than to the sign-in page (a
     * page's form answers 302 both ways). GraphQL answers 200 to everything; a call is
     * taken when it came back without errors.
     */
    const wasAccepted = (oc: Outcome): boolean => {
      if (!isWrite(oc.req.method) || oc.status === null || oc.status < 200 || oc.status >= 400) return false;
      if (oc.status >= 300) return !(oc.location ?? '').includes('/login');
      if (oc.req.path === '/graphql') {
        if (!oc.req.body?.includes('mutation')) return false;
        try { return !((JSON.parse(oc.body) as { errors?: unknown[] }).errors?.length); } catch { return true; }
      }
      return true;
    };

    /** One batch: sent, then the state compared (or re-baselined after an accepted write). */
    const runBatch = async (reqs: (FuzzRequest | GraphQLRequest)[]): Promise<Outcome[]> => {
      const outcomes = await runAll(agent, port, reqs, concurrency, timeoutMs);
      done += reqs.length;
      for (const oc of outcomes) {
        countStatus(oc);
        if (oc.status === null || oc.status >= 500) (oc.req.path === '/graphql' ? graphqlFailures : failures).push(describe(oc));
      }
      await compare(reqs, outcomes);
      return outcomes;
    };
    const compare = async (reqs: (FuzzRequest | GraphQLRequest)[], outcomes: Outcome[]): Promise<void> => {
      let refused = outcomes;
      if (outcomes.some(wasAccepted)) {
        // Some write was valid after all, and changed the state rightly. The batch's
        // refused requests are then sent again on the settled state, alone, and it is
        // that second sending whose effect is compared.
        batchesAccepted++;
        if (process.env.RELIABILITY_FUZZ_TRACE) for (const oc of outcomes) if (wasAccepted(oc)) console.error('ACCEPTED', describe(oc));
        const broken = await fixturesIntact(api, fixtures, token);
        if (broken !== null) {
          lostFixtures.push(`after #${reqs[0]!.n}…#${reqs.at(-1)!.n}: ${broken}`);
          if (process.env.RELIABILITY_FUZZ_TRACE) console.error('LOST', lostFixtures.at(-1));
          generation++;
          reseeds++;
          ({ fixtures, token } = await seedFixtures(api, adminToken, generation));
          // The requests name the old fixtures, some of which are gone: nothing to compare.
          baseline = await settle();
          return;
        }
        baseline = await settle();
        const again = outcomes.filter((oc) => !wasAccepted(oc) && oc.status !== null && oc.status >= 400 && isWrite(oc.req.method));
        refused = await runAll(agent, port, again.map((oc) => oc.req), concurrency, timeoutMs);
        resentRequests += refused.length;
        if (refused.some(wasAccepted)) { baseline = await settle(); return; }
      }
      batchesChecked++;
      requestsChecked += refused.length;
      const after = await state!.snapshot();
      const diff = changed(baseline, after);
      if (diff.length === 0) return;
      // Something changed though every write was refused: find which request it was,
      // sending them again one at a time.
      let before = await settle();
      let found = false;
      for (const oc of refused) {
        const [again] = await runAll(agent, port, [oc.req], 1, timeoutMs);
        const now = await state!.snapshot();
        const d = changed(before, now);
        if (d.length > 0 && again!.status !== null && again!.status >= 400) {
          partial.push(`${describe(again!)}\n      changed: ${d.slice(0, 4).join(', ')}`);
          found = true;
          before = await settle();
        } else if (d.length > 0) {
          before = await settle();
        }
      }
      if (!found) partial.push(`batch #${reqs[0]!.n}…#${reqs.at(-1)!.n} (every write refused) changed ${diff.slice(0, 4).join(', ')}; not reproduced one at a time`);
      baseline = await settle();
    };

    // The GraphQL calls go in among the REST requests, a share in each batch: the load
    // is then the same mix from start to end, which the memory figure compares.
    let lastReport = Date.now();
    const batches = Math.max(1, Math.ceil(total / batchSize));
    const graphqlPerBatch = Math.ceil(graphqlTotal / batches);
    const graphqlOutcomes: Outcome[] = [];
    for (let i = 0; i < batches; i++) {
      const reqs: (FuzzRequest | GraphQLRequest)[] = [];
      for (let n = i * batchSize; n < Math.min(total, (i + 1) * batchSize); n++) reqs.push(generate({ routes, fixtures, token }, seed, n));
      for (let n = i * graphqlPerBatch; n < Math.min(graphqlTotal, (i + 1) * graphqlPerBatch); n++) reqs.push(generateGraphQL(fixtures, token, seed, n));
      const outcomes = await runBatch(reqs);
      graphqlOutcomes.push(...outcomes.filter((oc) => oc.req.path === '/graphql'));
      if (Date.now() - lastReport > 15_000) {
        lastReport = Date.now();
        progress(`  ${done} of ${allTotal}: ${failures.length + graphqlFailures.length} 5xx or no answer, ${partial.length} partial writes, RSS ${((rssBytes(pid) ?? 0) / MB).toFixed(0)} MB`);
      }
    }
    clearInterval(sampler);

    // ------------------------------------------------------------ figures
    const figures: Figure[] = [];
    const fig = (name: string, value: string, pass: boolean | null, detail?: string) => figures.push({ suite: `${SUITE} (${o.dialect})`, name, value, pass, detail });
    fig('REST requests sent (routes × kinds)', `${total} over ${routes.length} routes × ${KINDS.length} kinds`, total > 0 ? null : false);
    fig('answers by status class', Object.entries(statuses).sort().map(([k, v]) => `${k} ${v}`).join(', '), null);
    fig('REST: 5xx or no answer', `${failures.length} of ${total}`, failures.length === 0, sample(failures));
    fig('GraphQL: 5xx or no answer', `${graphqlFailures.length} of ${graphqlTotal}`, graphqlFailures.length === 0, sample(graphqlFailures));
    // The calls past a bound: answered (not 5xx) with a non-empty GraphQL `errors` (or,
    // refused before GraphQL ran, a REST error with its message), never run.
    const limitCalls = graphqlOutcomes.filter((oc) => (LIMIT_KINDS as readonly string[]).includes(oc.req.kind));
    const unbounded = limitCalls.filter((oc) => {
      if (oc.status === null || oc.status >= 500) return false; // counted above
      try {
        const b = JSON.parse(oc.body) as { errors?: unknown[]; message?: string; data?: unknown };
        if (oc.status >= 400) return typeof b.message !== 'string';
        return !Array.isArray(b.errors) || b.errors.length === 0;
      } catch {
        return !oc.body.startsWith('{') || oc.body.length < 4096; // a cut-off body is a big answer: looked at below
      }
    }).map(describe);
    fig('GraphQL calls past a bound (depth, aliases, page size, fragment cycles, selections) answered with errors',
      `${limitCalls.length - unbounded.length} of ${limitCalls.length}`, limitCalls.length > 0 && unbounded.length === 0,
      limitCalls.length === 0 ? 'no such call was made' : sample(unbounded));
    fig('state fingerprint sees a write (a label made between two)', canary.length ? canary.join(', ') : 'nothing changed', canary.length > 0);
    fig('batches compared / requests whose effect was compared', `${batchesChecked} / ${requestsChecked}`, batchesChecked > 0 ? null : false,
      'no batch had every write refused: nothing was compared');
    fig('batches with a valid write (their refused requests compared on a second sending)', `${batchesAccepted}; ${resentRequests} requests sent again`, null);
    fig('partial writes (state changed by a refused request)', String(partial.length), partial.length === 0, sample(partial));
    fig('requests sent again on a connection of their own (the first was closed or reset)', String(resent.length), null, sample(resent));
    fig('fixtures made again (an accepted write removed or renamed one)', String(reseeds), null, sample(lostFixtures));
    // Memory: medians of the second and last quarters. A short run (CI's profile: a few
    // batches, sampled while each one's state is compared) only shows a young process
    // filling its bounded caches (statements, reads, answers, compiled queries), which
    // says nothing of a leak: only a run of MIN_MEMORY_REQUESTS or more is judged.
    const q2 = rss.filter((s) => s.at >= 0.25 && s.at < 0.5).map((s) => s.bytes);
    const q4 = rss.filter((s) => s.at >= 0.75).map((s) => s.bytes);
    if (q2.length && q4.length && allTotal >= MIN_MEMORY_REQUESTS) {
      const a = median(q2);
      const b = median(q4);
      const growth = b - a;
      fig('memory: RSS median, 2nd quarter → last quarter', `${(a / MB).toFixed(0)} MB → ${(b / MB).toFixed(0)} MB (${growth >= 0 ? '+' : ''}${((growth / a) * 100).toFixed(1)} %)`,
        growth <= 0.25 * a && growth <= 96 * MB, `heap bound ${heapMb > 0 ? `${heapMb} MB` : 'none'}; peak ${(Math.max(...rss.map((s) => s.bytes)) / MB).toFixed(0)} MB; ${rss.length} samples`);
    } else {
      fig('memory: RSS median, 2nd quarter → last quarter', `${allTotal} requests, ${rss.length} samples: too short a run to say`, null);
    }
    return { dialect: o.dialect, figures, requests: total, graphqlRequests: graphqlTotal, routes: routes.length, seconds: (Date.now() - started) / 1000, statuses };
  } catch (err) {
    if (child) (err as Error).message += `\nlast output of ${child.name}:\n${child.output().slice(-3000)}`;
    throw err;
  } finally {
    clearInterval(sampler);
    agent.destroy();
    await state?.close();
    if (child) await child.stop(5000);
    fs.rmSync(work, { recursive: true, force: true });
    await dropSchema(o.databaseUrl, schema);
  }
}
