// Several processes (issue #22 § 2): 3 Wharf processes behind nginx on one PostgreSQL
// schema, one shared data dir (the git repositories' shared storage) and Redis for
// rate-limit counters — the README's recipe — must behave as one Wharf:
//   - rate limits: N requests at once through the balancer with a budget of L are
//     answered 2xx exactly L times, each remaining count once (Redis counters); the
//     anonymous budget is the client's (X-Forwarded-For from the trusted proxy), not
//     the balancer's
//   - lockout: N wrong passwords at once are checked at most max-failures times; then
//     the right one is refused too
//   - numbering: N issue creates at once from several users get N distinct numbers,
//     exactly 1..N, each with one issues/opened delivery (3 delivery workers)
//   - git: pushes to one branch from two processes at once have exactly one winner,
//     the branch is the winner's commit; pushes to different branches all land; the
//     repository passes git fsck; the API's refs are the disk's; each push is one event
//   - kill -9 of one process under write load through the balancer loses no
//     acknowledged write, and the others go on answering
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { freePort, startChild, waitForHttp, type Child } from '../bench/children.ts';
import type { Figure } from './figures.ts';
import { git, gitOk } from './git.ts';
import { call, callOk, listAll, send, type Answer } from './http.ts';
import { startNginx, type Nginx } from './nginx.ts';
import { Receiver } from './receiver.ts';
import { dropSchema, inheritedEnv } from './wharf-env.ts';

const SUITE = 'processes';
const OWNER = 'cluster-owner';

export interface ClusterOptions {
  /** node's arguments that start Wharf (the bundle, or src/main.ts through tsx). */
  serverArgs: string[];
  cwd: string;
  /** The PostgreSQL database in which a fresh schema is made (and dropped after). */
  databaseUrl: string;
  redisUrl: string;
  /** Wharf processes behind the balancer [3]. */
  processes?: number;
  /** Requests sent at once in the rate-limit, lockout and numbering checks [200]. */
  concurrent?: number;
  /** Rounds of two pushes to one branch from two processes at once [5]. */
  pushRounds?: number;
  /** How long the write load runs around the kill, ms [3000]. */
  killLoadMs?: number;
  progress?: (line: string) => void;
}

export interface ClusterResult {
  figures: Figure[];
}

interface Backend {
  port: number;
  child: Child | null;
}

const RATE_LIMIT = 150;
const ANONYMOUS_LIMIT = 60;
const MAX_FAILURES = 10;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const basic = (login: string, secret: string) => `Basic ${Buffer.from(`${login}:${secret}`).toString('base64')}`;

function sample(items: readonly string[], max = 5): string {
  return items.slice(0, max).join('\n') + (items.length > max ? `\n… and ${items.length - max} more` : '');
}

/** The process that answered: request ids are `<pid in base 36>-<sequence>`. */
function answeredBy(a: Answer): string {
  return (a.headers.get('x-github-request-id') ?? '').split('-')[0] ?? '';
}

/** Sends every request at once; failures to connect count as status 0. */
async function all<T>(n: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
}

async function sendOrZero(base: string, method: string, pathname: string, o: Parameters<typeof send>[3]): Promise<Answer> {
  try {
    return await send(base, method, pathname, o);
  } catch {
    return { status: 0, json: null, headers: new Headers() };
  }
}

export async function runCluster(o: ClusterOptions): Promise<ClusterResult> {
  const progress = o.progress ?? (() => {});
  const processes = o.processes ?? 3;
  const concurrent = o.concurrent ?? 200;
  const figures: Figure[] = [];
  const figure = (name: string, value: string, pass: boolean | null, detail?: string) => {
    figures.push({ suite: SUITE, name, value, pass, ...(detail ? { detail } : {}) });
  };

  const id = randomBytes(5).toString('hex');
  const schema = `wharf_cluster_${id}`;
  const redisPrefix = `wharf-cluster-${id}:`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-cluster-'));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-cluster-git-'));
  const adminToken = `whp_${randomBytes(18).toString('hex')}`;
  const receiver = new Receiver();
  await receiver.start();
  const backends: Backend[] = [];
  for (let i = 0; i < processes; i++) backends.push({ port: await freePort(), child: null });
  let nginx: Nginx | null = null;
  const nginxPort = await freePort();
  const env = serverEnv(o, { dataDir, schema, redisPrefix, adminToken, baseUrl: `http://127.0.0.1:${nginxPort}` });

  const start = async (b: Backend) => {
    b.child = startChild(`wharf (cluster, port ${b.port})`, o.serverArgs, { cwd: o.cwd, env: { ...env, PORT: String(b.port) } });
    await waitForHttp(b.child, `http://127.0.0.1:${b.port}/readyz`, 120_000);
  };

  try {
    const began = Date.now();
    // All at once: each process migrates the fresh schema as it starts.
    await Promise.all(backends.map(start));
    nginx = await startNginx(backends.map((b) => b.port), nginxPort);
    const api = nginx.base;
    progress(`processes: ${processes} Wharf processes behind nginx at ${api}, started in ${((Date.now() - began) / 1000).toFixed(1)} s`);

    const users = await makeUsers(api, adminToken, ['owner', 'rl', 'lock', 'w1', 'w2', 'w3', 'w4']);
    const owner = users.get('owner')!;
    await callOk(api, owner.token, 'POST', '/user/repos', { name: 'shared', auto_init: true });
    await callOk(api, owner.token, 'POST', `/repos/${OWNER}/shared/hooks`, {
      name: 'web', active: true, events: ['issues', 'push'],
      config: { url: `http://127.0.0.1:${receiver.port}/hook`, content_type: 'json' },
    });

    const t0 = Date.now();
    const step = (what: string) => progress(`processes: ${what} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    await checkRateLimits(api, users.get('rl')!.token, concurrent, figure);
    await checkLockout(api, users.get('lock')!, concurrent, figure);
    step('rate limits and lockout checked');
    const creators = ['w1', 'w2', 'w3', 'w4'].map((l) => users.get(l)!.token);
    const created = await checkNumbering(api, creators, concurrent, figure);
    step('numbering checked');
    await checkPushes(o, api, owner, backends, dataDir, work, receiver, figure);
    step('pushes checked');
    const killed = await checkKill(o, api, creators, backends, start, figure);
    step('kill checked');
    await checkIssuesAndEvents(api, owner.token, [...created, ...killed], receiver, figure);
    step('issues and their deliveries checked');
  } finally {
    await nginx?.stop();
    await Promise.all(backends.map((b) => b.child?.stop()));
    await receiver.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
    await dropSchema(o.databaseUrl, schema);
    await dropRedisKeys(o.redisUrl, redisPrefix);
  }
  return { figures };
}

interface Setup { dataDir: string; schema: string; redisPrefix: string; adminToken: string; baseUrl: string }

function serverEnv(o: ClusterOptions, s: Setup): NodeJS.ProcessEnv {
  const env = inheritedEnv();
  return {
    ...env,
    HOST: '127.0.0.1',
    DATABASE_URL: o.databaseUrl,
    WHARF_DATABASE_SCHEMA: s.schema,
    WHARF_DATA_DIR: s.dataDir,
    WHARF_BASE_URL: s.baseUrl,
    WHARF_ADMIN_TOKEN: s.adminToken,
    REDIS_URL: o.redisUrl,
    WHARF_REDIS_PREFIX: s.redisPrefix,
    WHARF_TRUST_PROXY: '127.0.0.1',
    WHARF_SSH_PORT: '0',
    LOG_LEVEL: 'warn',
    NODE_ENV: process.env.NODE_ENV ?? 'production',
    WHARF_RATE_LIMIT_AUTHENTICATED: String(RATE_LIMIT),
    WHARF_RATE_LIMIT_UNAUTHENTICATED: String(ANONYMOUS_LIMIT),
    WHARF_LOGIN_MAX_FAILURES: String(MAX_FAILURES),
    WHARF_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WHARF_WEBHOOK_TIMEOUT_MS: '3000',
    WHARF_WEBHOOK_RETRY_BASE_MS: '200',
    WHARF_WEBHOOK_MAX_ATTEMPTS: '30',
    WHARF_WEBHOOK_POLL_MS: '200',
  };
}

interface User { login: string; token: string }

async function makeUsers(api: string, adminToken: string, names: string[]): Promise<Map<string, User>> {
  const users = new Map<string, User>();
  for (const name of names) {
    const login = name === 'owner' ? OWNER : `cluster-${name}`;
    await callOk(api, adminToken, 'POST', '/admin/users', { login, email: `${login}@example.com` });
    const auth = await callOk(api, adminToken, 'POST', `/admin/users/${login}/authorizations`, { scopes: ['repo', 'user', 'admin:repo_hook'] });
    users.set(name, { login, token: String(auth.token) });
  }
  return users;
}

type FigureFn = (name: string, value: string, pass: boolean | null, detail?: string) => void;

async function checkRateLimits(api: string, token: string, n: number, figure: FigureFn): Promise<void> {
  const answers = await all(n, () => sendOrZero(api, 'GET', '/user', { authorization: `token ${token}` }));
  const ok = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status === 403 || a.status === 429);
  const remaining = ok.map((a) => Number(a.headers.get('x-ratelimit-remaining')));
  const distinct = new Set(remaining).size;
  const pids = new Set(answers.map(answeredBy).filter(Boolean)).size;
  figure(`GET /user ×${n} at once, budget ${RATE_LIMIT}: answered 200`, `${ok.length} (refused ${refused.length}, by ${pids} processes)`,
    ok.length === RATE_LIMIT && refused.length === n - RATE_LIMIT && pids > 1,
    `statuses: ${JSON.stringify(countBy(answers.map((a) => String(a.status))))}`);
  figure('X-RateLimit-Remaining of those 200s, each value once', `${distinct} distinct of ${ok.length}`, distinct === ok.length && Math.min(...remaining) === 0);

  const client = (ip: string) => sendOrZero(api, 'GET', `/users/${OWNER}`, { headers: { 'x-forwarded-for': ip } });
  const first = await all(n, () => client('203.0.113.7'));
  const other = await client('203.0.113.8');
  const firstOk = first.filter((a) => a.status === 200).length;
  figure(`anonymous GET ×${n} at once from one client address, budget ${ANONYMOUS_LIMIT}: answered 200`, `${firstOk}; another address then ${other.status}`,
    firstOk === ANONYMOUS_LIMIT && other.status === 200);
}

async function checkLockout(api: string, user: User, n: number, figure: FigureFn): Promise<void> {
  // From as many client addresses (a spread guessing attack): the lockout is the login's,
  // and no address's anonymous budget runs out first.
  const answers = await all(n, (i) => sendOrZero(api, 'GET', '/user', {
    authorization: basic(user.login, `wrong-${i}`), headers: { 'x-forwarded-for': `198.51.100.${i % 250}` },
  }));
  const checked = answers.filter((a) => a.status === 401).length;
  const locked = answers.filter((a) => a.status === 403 && /Maximum number of login attempts/.test(JSON.stringify(a.json))).length;
  const right = await sendOrZero(api, 'GET', '/user', { authorization: basic(user.login, user.token) });
  figure(`wrong passwords ×${n} at once, lockout after ${MAX_FAILURES}: checked (401)`, `${checked} (locked out ${locked})`,
    checked === MAX_FAILURES && locked === n - MAX_FAILURES, `statuses: ${JSON.stringify(countBy(answers.map((a) => String(a.status))))}`);
  figure('the right password after the lockout', String(right.status), right.status === 403);
}

interface Created { number: number; title: string }

async function checkNumbering(api: string, tokens: string[], n: number, figure: FigureFn): Promise<Created[]> {
  const answers = await all(n, async (i) => {
    const title = `at once ${i}`;
    const a = await sendOrZero(api, 'POST', `/repos/${OWNER}/shared/issues`, { authorization: `token ${tokens[i % tokens.length]}`, body: { title } });
    return { a, title };
  });
  const created = answers.filter((x) => x.a.status === 201).map((x) => ({ number: Number((x.a.json as { number: number }).number), title: x.title }));
  const numbers = created.map((c) => c.number).sort((a, b) => a - b);
  const twice = numbers.filter((v, i) => i > 0 && numbers[i - 1] === v);
  const exact = numbers.length === n && numbers.every((v, i) => v === i + 1);
  const pids = new Set(answers.map((x) => answeredBy(x.a)).filter(Boolean)).size;
  figure(`issue creates ×${n} at once from ${tokens.length} users: created`, `${created.length} by ${pids} processes`, created.length === n && pids > 1,
    `statuses: ${JSON.stringify(countBy(answers.map((x) => String(x.a.status))))}`);
  figure('issue numbers used twice', String(twice.length), twice.length === 0, sample(twice.map(String)));
  figure(`issue numbers are exactly 1..${n}`, exact ? 'yes' : 'no', exact);
  return created;
}

async function checkPushes(o: ClusterOptions, api: string, owner: User, backends: Backend[], dataDir: string, work: string, receiver: Receiver, figure: FigureFn): Promise<void> {
  const rounds = o.pushRounds ?? 5;
  const remoteVia = (port: number) => `http://${owner.login}:${owner.token}@127.0.0.1:${port}/${OWNER}/shared.git`;
  const [a, b] = [path.join(work, 'a'), path.join(work, 'b')];
  await gitOk(['clone', '-q', remoteVia(backends[0]!.port), a]);
  await gitOk(['clone', '-q', remoteVia(backends[1]!.port), b]);
  const commit = async (dir: string, name: string) => {
    fs.writeFileSync(path.join(dir, `${name}.txt`), `${name}\n`);
    await gitOk(['add', '-A'], dir);
    await gitOk(['commit', '-q', '-m', name], dir);
    return (await gitOk(['rev-parse', 'HEAD'], dir)).trim();
  };

  let oneWinner = 0;
  let branchIsWinner = 0;
  const acked: { branch: string; sha: string }[] = [];
  const problems: string[] = [];
  for (let round = 0; round < rounds; round++) {
    await gitOk(['pull', '-q', '--ff-only', 'origin', 'main'], a);
    await gitOk(['pull', '-q', '--ff-only', 'origin', 'main'], b);
    const [shaA, shaB] = [await commit(a, `a-${round}`), await commit(b, `b-${round}`)];
    const [ra, rb] = await Promise.all([git(['push', '-q', 'origin', 'HEAD:main'], a), git(['push', '-q', 'origin', 'HEAD:main'], b)]);
    const winners = [ra.code === 0 ? shaA : null, rb.code === 0 ? shaB : null].filter((s): s is string => s !== null);
    if (winners.length === 1) oneWinner++;
    else problems.push(`round ${round}: ${winners.length} pushes won (a: ${ra.stderr.trim().split('\n').pop()}, b: ${rb.stderr.trim().split('\n').pop()})`);
    const main = await callOk(api, owner.token, 'GET', `/repos/${OWNER}/shared/git/ref/heads/main`);
    const at = String((main.object as { sha: string }).sha);
    if (winners.length === 1 && at === winners[0]) branchIsWinner++;
    for (const w of winners) acked.push({ branch: 'main', sha: w });
    // The loser starts the next round from what won.
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], ra.code === 0 ? b : a);
  }
  figure(`pushes to one branch from 2 processes at once: rounds with one winner`, `${oneWinner} of ${rounds}`, oneWinner === rounds, sample(problems));
  figure('the branch is the winner\'s commit', `${branchIsWinner} of ${rounds}`, branchIsWinner === rounds);

  // Different branches at once: all land.
  let landed = 0;
  const pushes = await Promise.all(Array.from({ length: 4 }, async (_, i) => {
    const dir = i % 2 === 0 ? a : b;
    const branch = `side-${i}`;
    return { branch, r: await git(['push', '-q', 'origin', `HEAD:refs/heads/${branch}`], dir), sha: (await gitOk(['rev-parse', 'HEAD'], dir)).trim() };
  }));
  for (const p of pushes) {
    if (p.r.code !== 0) continue;
    const got = await call(api, owner.token, 'GET', `/repos/${OWNER}/shared/git/ref/heads/${p.branch}`);
    if (got.status === 200 && (got.json as { object: { sha: string } }).object.sha === p.sha) landed++;
    acked.push({ branch: p.branch, sha: p.sha });
  }
  figure('pushes to 4 new branches from 2 processes at once: landed', `${landed} of 4`, landed === 4);

  // The repository on the shared storage.
  const info = await callOk(api, owner.token, 'GET', `/repos/${OWNER}/shared`);
  const bare = path.join(dataDir, 'repos', `${Number(info.id)}.git`);
  const fsck = await git(['fsck', '--strict', '--no-progress'], bare);
  figure('the repository passes git fsck', fsck.code === 0 ? 'yes' : 'no', fsck.code === 0, fsck.stderr.slice(0, 500));
  const disk = new Map((await gitOk(['for-each-ref', '--format=%(refname) %(objectname)'], bare)).trim().split('\n').filter(Boolean)
    .map((l) => l.split(' ') as [string, string]).filter(([ref]) => ref.startsWith('refs/heads/') || ref.startsWith('refs/tags/')));
  const listed = await listAll(api, owner.token, `/repos/${OWNER}/shared/git/refs`);
  const viaApi = new Map(listed.map((r) => [String(r.ref), String((r.object as { sha: string }).sha)]));
  const differ = [...new Set([...disk.keys(), ...viaApi.keys()])].filter((ref) => disk.get(ref) !== viaApi.get(ref));
  figure('refs on the shared disk are the API\'s', differ.length === 0 ? 'yes' : `${differ.length} differ`, differ.length === 0, sample(differ));

  // Each acknowledged push is one push event, under one delivery id.
  await waitFor(() => acked.every((p) => receiver.deliveries.some((d) => d.event === 'push' && d.after === p.sha)), 30_000);
  const missing = acked.filter((p) => !receiver.deliveries.some((d) => d.event === 'push' && d.after === p.sha));
  const pushIds = new Map<string, Set<string>>();
  for (const d of receiver.deliveries) if (d.event === 'push') pushIds.set(d.key, (pushIds.get(d.key) ?? new Set()).add(d.guid));
  const twice = [...pushIds].filter(([, ids]) => ids.size > 1).map(([key]) => key);
  figure('acknowledged pushes without a push delivery', `${missing.length} of ${acked.length}`, missing.length === 0, sample(missing.map((p) => `${p.branch} ${p.sha}`)));
  figure('push events under more than one delivery id', String(twice.length), twice.length === 0, sample(twice));
}

async function checkKill(
  o: ClusterOptions, api: string, tokens: string[], backends: Backend[], start: (b: Backend) => Promise<void>, figure: FigureFn,
): Promise<Created[]> {
  const loadMs = o.killLoadMs ?? 3000;
  const acked: Created[] = [];
  const statuses: string[] = [];
  let stop = false;
  const worker = async (w: number) => {
    for (let i = 0; !stop; i++) {
      const title = `kill load ${w}-${i}`;
      const a = await sendOrZero(api, 'POST', `/repos/${OWNER}/shared/issues`, { authorization: `token ${tokens[w % tokens.length]}`, body: { title } });
      statuses.push(String(a.status));
      if (a.status === 201) acked.push({ number: Number((a.json as { number: number }).number), title });
    }
  };
  const victim = backends[backends.length - 1]!;
  const load = Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
  await sleep(loadMs / 2);
  victim.child!.process.kill('SIGKILL');
  await sleep(loadMs / 2);
  stop = true;
  await load;
  const after = await sendOrZero(api, 'GET', `/repos/${OWNER}/shared`, { authorization: `token ${tokens[0]}` });
  await victim.child!.stop();
  await start(victim);
  figure(`kill -9 of 1 of ${backends.length} processes under write load: creates acknowledged`, `${acked.length} (others: ${JSON.stringify(countBy(statuses.filter((s) => s !== '201')))})`,
    acked.length > 0);
  figure('the other processes answer after the kill', String(after.status), after.status === 200);
  return acked;
}

async function checkIssuesAndEvents(api: string, token: string, acked: Created[], receiver: Receiver, figure: FigureFn): Promise<void> {
  const listed = await listAll(api, token, `/repos/${OWNER}/shared/issues?state=all`);
  const byNumber = new Map(listed.map((i) => [Number(i.number), String(i.title)]));
  const lost = acked.filter((c) => byNumber.get(c.number) !== c.title);
  figure('acknowledged issue creates lost (at once and under the kill)', `${lost.length} of ${acked.length}`, lost.length === 0, sample(lost.map((c) => `#${c.number} ${c.title}`)));
  const numbers = listed.map((i) => Number(i.number)).sort((a, b) => a - b);
  const twice = numbers.filter((v, i) => i > 0 && numbers[i - 1] === v);
  figure('issue numbers used twice, all issues', String(twice.length), twice.length === 0);

  const opened = (n: number) => receiver.deliveries.filter((d) => d.event === 'issues' && d.action === 'opened' && d.key.endsWith(`#${n}:`));
  await waitFor(() => acked.every((c) => opened(c.number).length > 0), 30_000);
  const missing = acked.filter((c) => opened(c.number).length === 0);
  const twiceIds = acked.filter((c) => new Set(opened(c.number).map((d) => d.guid)).size > 1);
  const redelivered = acked.filter((c) => opened(c.number).length > new Set(opened(c.number).map((d) => d.guid)).size);
  figure('acknowledged creates without an issues/opened delivery', `${missing.length} of ${acked.length}`, missing.length === 0, sample(missing.map((c) => `#${c.number}`)));
  figure('issues/opened events under more than one delivery id', String(twiceIds.length), twiceIds.length === 0, sample(twiceIds.map((c) => `#${c.number}`)));
  figure('the same delivery id received twice (redelivery, at least once)', String(redelivered.length), null);
}

async function waitFor(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await sleep(200);
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

async function dropRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  } catch { /* best effort: the keys expire with their windows */ } finally {
    redis.disconnect();
  }
}
