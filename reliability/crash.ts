// The crash suite (issue #22 § 1): Wharf as a real child process, under concurrent
// write load, killed with SIGKILL at random moments and started again on the same data
// dir (and PostgreSQL schema); afterwards every write the server acknowledged must be
// there, through the API, with its content.
//
// Load, from several loops at once until the last kill is done:
//   - issue creates (POST /repos/{o}/{r}/issues, a unique title)
//   - comments on acknowledged issues (a unique body)
//   - label adds on acknowledged issues (one of the repository's labels)
//   - API ref writes: POST …/git/refs of a new branch, PATCH …/git/refs/heads/… (force)
//     of one whose create was acknowledged, each to a commit known to be in the repository
//   - git pushes with the git binary of a new commit to a branch of the repository
//   - behind them, webhook deliveries (issues, issue_comment, push) to a receiver here
//     that records X-GitHub-Delivery
// Acknowledged means a 2xx status reached the client (for a push: git exited 0). What
// was not acknowledged may or may not be there; both are fine.
//
// Checks afterwards (server up, load stopped, deliveries drained by polling):
//   - acknowledged writes lost: issue (number, title), comment (id, body), label on its
//     issue, ref (the last acknowledged sha, or one written after it unacknowledged),
//     push (the sha reachable from the branch, by the compare API)
//   - issue numbers: none twice. Gaps and committed-but-unacknowledged creates are
//     reported, not failed: Wharf allocates the number in the issue's own transaction
//     (issues.store.ts allocateNumber), so a killed create takes its number with it and
//     a gap is not expected; but clients cannot count on contiguous numbers (upstream
//     has gaps too: deleted and transferred issues), so a gap is a figure to look at.
//   - every repository passes `git fsck`, and its refs on disk are GET …/git/refs
//   - webhooks: each acknowledged issue create has an issues/opened delivery, each
//     acknowledged comment an issue_comment/created one, each acknowledged push a push
//     one (after = its sha, or a later push's: a push journal recovered at start may
//     report several pushes as one); no event under two delivery ids, no delivery id
//     for two different events. The same id received more than once (a redelivery
//     after a crash: at-least-once) is reported, not failed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { freePort, startChild, waitForHttp, type Child } from '../bench/children.ts';
import type { Figure } from './figures.ts';
import { git, gitOk } from './git.ts';
import { call, callOk, listAll } from './http.ts';
import { createSchema, dropSchema, wharfEnv } from './wharf-env.ts';
import { Receiver, type Delivery } from './receiver.ts';

const SUITE = 'crash';
/** The figure of push events recorded twice (see the CI test, which keeps it apart). */
export const PUSH_EVENTS_TWICE = 'push events delivered under more than one delivery id';
const LOGIN = 'crash-user';
const LABELS = ['crash-a', 'crash-b', 'crash-c', 'crash-d', 'crash-e'];

export interface CrashOptions {
  /** node's arguments that start Wharf (the bundle, or src/main.ts through tsx). */
  serverArgs: string[];
  /** The working directory of Wharf's process (the repository root). */
  cwd: string;
  dialect: 'sqlite' | 'postgres';
  /** PostgreSQL: the database in which a fresh schema is made (and dropped after). */
  databaseUrl?: string;
  kills: number;
  /** Random load between kills, ms. */
  minLoadMs?: number;
  maxLoadMs?: number;
  /** Repositories written to (each with its pushes, refs and webhook). */
  repos?: number;
  /** Concurrent issue creators (the other loops run one each; refs and pushes one per repository). */
  issueWorkers?: number;
  /** How long the server may take to answer after a start, ms. */
  startTimeoutMs?: number;
  /** How long deliveries may take to drain after the load, ms. */
  drainTimeoutMs?: number;
  progress?: (line: string) => void;
}

export interface CrashResult {
  dialect: string;
  figures: Figure[];
  acknowledged: number;
  attempted: number;
  kills: number;
  seconds: number;
}

// ---------------------------------------------------------------- what was acknowledged

interface AckIssue { repo: string; number: number | null; title: string }
interface AckComment { repo: string; issue: number; id: number | null; body: string }
interface AckLabel { repo: string; issue: number; name: string }
interface AckPush { repo: string; branch: string; sha: string }
/** One API ref: the sha of its last acknowledged write, and those written after it without an answer. */
interface RefState {
  repo: string; ref: string; acked: string | null; ackedWrites: number; pending: Set<string>;
  /** Every sha ever written to it: a ref never goes back to one, so each of its push events is distinct. */
  used: Set<string>;
}

class Ledger {
  issues: AckIssue[] = [];
  comments: AckComment[] = [];
  labels: AckLabel[] = [];
  pushes: AckPush[] = [];
  refs: RefState[] = [];
  attempted = 0;
  failed = 0;
  /** Commits known to be in each repository (main's first, then acknowledged pushes). */
  commits = new Map<string, string[]>();

  acknowledged(): number {
    return this.issues.length + this.comments.length + this.labels.length + this.pushes.length
      + this.refs.reduce((n, r) => n + r.ackedWrites, 0);
  }
}

// ---------------------------------------------------------------- the server

interface Server {
  base: string;
  port: number;
  child: Child | null;
  starts: number;
}

function serverEnv(o: CrashOptions, port: number, dataDir: string, adminToken: string, schema: string | undefined): NodeJS.ProcessEnv {
  return {
    ...wharfEnv(port, dataDir, adminToken),
    // Short waits so that deliveries left behind by a kill drain soon: leases of
    // timeout + 2 s, retries from 200 ms, the queue looked at every 200 ms.
    WHARF_WEBHOOK_TIMEOUT_MS: '3000',
    WHARF_WEBHOOK_RETRY_BASE_MS: '200',
    WHARF_WEBHOOK_MAX_ATTEMPTS: '30',
    WHARF_WEBHOOK_POLL_MS: '200',
    ...(o.dialect === 'postgres' ? { DATABASE_URL: o.databaseUrl, WHARF_DATABASE_SCHEMA: schema } : {}),
  };
}

// ---------------------------------------------------------------- the suite

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

function sample(items: readonly string[], max = 5): string {
  return items.slice(0, max).join('\n') + (items.length > max ? `\n… and ${items.length - max} more` : '');
}

export async function runCrash(o: CrashOptions): Promise<CrashResult> {
  const progress = o.progress ?? (() => {});
  const minLoad = o.minLoadMs ?? 200;
  const maxLoad = o.maxLoadMs ?? 2000;
  const repoCount = o.repos ?? 2;
  const issueWorkers = o.issueWorkers ?? 2;
  const startTimeout = o.startTimeoutMs ?? 120_000;
  const started = Date.now();

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-crash-'));
  const dataDir = path.join(work, 'data');
  const adminToken = `whp_${randomBytes(18).toString('hex')}`;
  let schema: string | undefined;
  if (o.dialect === 'postgres') schema = await createSchema(o.databaseUrl, 'crash');
  const port = await freePort();
  const server: Server = { base: `http://127.0.0.1:${port}`, port, child: null, starts: 0 };
  const env = serverEnv(o, port, dataDir, adminToken, schema);
  const receiver = new Receiver();
  await receiver.start();

  const start = async () => {
    server.starts++;
    server.child = startChild(`wharf (start ${server.starts})`, o.serverArgs, { cwd: o.cwd, env });
    await waitForHttp(server.child, `${server.base}/meta`, startTimeout);
  };
  const kill = async () => {
    const child = server.child!;
    const gone = new Promise<void>((resolve) => {
      if (child.process.exitCode !== null || child.process.signalCode !== null) resolve();
      else child.process.once('exit', () => resolve());
    });
    child.process.kill('SIGKILL');
    await gone;
    await child.stop(); // forgets it (it is already gone)
  };

  try {
    await start();
    const api = server.base;
    await callOk(api, adminToken, 'POST', '/admin/users', { login: LOGIN, email: `${LOGIN}@example.com` });
    const auth = await callOk(api, adminToken, 'POST', `/admin/users/${LOGIN}/authorizations`, { scopes: ['repo', 'user', 'admin:repo_hook'] });
    const token = String(auth.token);
    const ledger = new Ledger();
    const repos = Array.from({ length: repoCount }, (_, i) => `crash-${i + 1}`);
    const clones = new Map<string, string>();
    for (const repo of repos) {
      await callOk(api, token, 'POST', '/user/repos', { name: repo, auto_init: true });
      for (const name of LABELS) await callOk(api, token, 'POST', `/repos/${LOGIN}/${repo}/labels`, { name, color: 'ededed' });
      await callOk(api, token, 'POST', `/repos/${LOGIN}/${repo}/hooks`, {
        name: 'web', active: true, events: ['issues', 'issue_comment', 'push'],
        config: { url: `http://127.0.0.1:${receiver.port}/hook`, content_type: 'json' },
      });
      const main = await callOk(api, token, 'GET', `/repos/${LOGIN}/${repo}/git/ref/heads/main`);
      ledger.commits.set(repo, [String((main.object as { sha: string }).sha)]);
      const remote = new URL(`${api}/${LOGIN}/${repo}.git`);
      remote.username = LOGIN;
      remote.password = token;
      const dir = path.join(work, 'clones', repo);
      await gitOk(['clone', '-q', remote.toString(), dir]);
      await gitOk(['checkout', '-q', '-b', 'pushed'], dir);
      clones.set(repo, dir);
    }
    progress(`${SUITE} (${o.dialect}): Wharf up on ${api}, ${repoCount} repositories; ${o.kills} kills under load`);

    // ------------------------------------------------------------ the load
    let stopping = false;
    const ackedIssues = (repo: string) => ledger.issues.filter((i) => i.repo === repo && i.number !== null);
    /** Runs one write; true when acknowledged. A refused or failed request waits a little (the server may be down). */
    const attempt = async (fn: () => Promise<boolean>): Promise<void> => {
      ledger.attempted++;
      let ok = false;
      try { ok = await fn(); } catch { ok = false; }
      if (!ok) {
        ledger.failed++;
        await sleep(50 + Math.random() * 100);
      }
    };
    const issueLoop = async () => {
      while (!stopping) {
        const repo = pick(repos);
        const title = `crash issue ${randomUUID()}`;
        await attempt(async () => {
          const a = await call(api, token, 'POST', `/repos/${LOGIN}/${repo}/issues`, { title, body: 'made under kill -9' });
          if (a.status !== 201) return false;
          const n = (a.json as { number?: number } | null)?.number;
          ledger.issues.push({ repo, number: typeof n === 'number' ? n : null, title });
          return true;
        });
      }
    };
    const commentLoop = async () => {
      while (!stopping) {
        const repo = pick(repos);
        const issues = ackedIssues(repo);
        if (issues.length === 0) { await sleep(50); continue; }
        const issue = pick(issues).number!;
        const body = `crash comment ${randomUUID()}`;
        await attempt(async () => {
          const a = await call(api, token, 'POST', `/repos/${LOGIN}/${repo}/issues/${issue}/comments`, { body });
          if (a.status !== 201) return false;
          const id = (a.json as { id?: number } | null)?.id;
          ledger.comments.push({ repo, issue, id: typeof id === 'number' ? id : null, body });
          return true;
        });
      }
    };
    const labelLoop = async () => {
      while (!stopping) {
        const repo = pick(repos);
        const issues = ackedIssues(repo);
        if (issues.length === 0) { await sleep(50); continue; }
        const issue = pick(issues).number!;
        const name = pick(LABELS);
        await attempt(async () => {
          const a = await call(api, token, 'POST', `/repos/${LOGIN}/${repo}/issues/${issue}/labels`, { labels: [name] });
          if (a.status !== 200) return false;
          ledger.labels.push({ repo, issue, name });
          return true;
        });
      }
    };
    const refLoop = async (repo: string) => {
      let n = 0;
      while (!stopping) {
        const commits = ledger.commits.get(repo)!;
        const sha = pick(commits);
        // A ref moves only to a commit it never pointed at (else two of its updates could be the same event).
        const mine = ledger.refs.filter((r) => r.repo === repo && r.acked !== null && commits.some((c) => !r.used.has(c)));
        if (mine.length === 0 || Math.random() < 0.4) {
          const state: RefState = { repo, ref: `refs/heads/api-${++n}`, acked: null, ackedWrites: 0, pending: new Set([sha]), used: new Set([sha]) };
          ledger.refs.push(state);
          await attempt(async () => {
            const a = await call(api, token, 'POST', `/repos/${LOGIN}/${repo}/git/refs`, { ref: state.ref, sha });
            if (a.status !== 201) return false;
            state.acked = sha; state.ackedWrites++; state.pending.clear();
            return true;
          });
        } else {
          const state = pick(mine);
          const to = pick(commits.filter((c) => !state.used.has(c)));
          state.used.add(to);
          await attempt(async () => {
            state.pending.add(to);
            const a = await call(api, token, 'PATCH', `/repos/${LOGIN}/${repo}/git/${state.ref}`, { sha: to, force: true });
            if (a.status !== 200) return false;
            state.acked = to; state.ackedWrites++; state.pending.clear();
            return true;
          });
        }
      }
    };
    const pushLoop = async (repo: string) => {
      const dir = clones.get(repo)!;
      let n = 0;
      while (!stopping) {
        n++;
        fs.writeFileSync(path.join(dir, `file-${n % 50}.txt`), `${randomUUID()}\n`);
        await gitOk(['add', '-A'], dir);
        await gitOk(['commit', '-q', '-m', `crash push ${n}`], dir);
        const sha = (await gitOk(['rev-parse', 'HEAD'], dir)).trim();
        await attempt(async () => {
          const r = await git(['push', '-q', 'origin', 'HEAD:refs/heads/pushed'], dir, 30_000);
          if (r.code !== 0) return false;
          ledger.pushes.push({ repo, branch: 'pushed', sha });
          ledger.commits.get(repo)!.push(sha);
          return true;
        });
      }
    };
    const loops = [
      ...Array.from({ length: issueWorkers }, () => issueLoop()),
      commentLoop(),
      labelLoop(),
      ...repos.map((r) => refLoop(r)),
      ...repos.map((r) => pushLoop(r)),
    ];
    let loopError: unknown = null;
    const loadDone = Promise.all(loops).catch((err) => { loopError = err; stopping = true; });

    // ------------------------------------------------------------ the kills
    const downtimes: number[] = [];
    for (let k = 1; k <= o.kills && !stopping; k++) {
      await sleep(minLoad + Math.random() * (maxLoad - minLoad));
      await kill();
      const t0 = Date.now();
      await start();
      downtimes.push(Date.now() - t0);
      progress(`  kill ${k}/${o.kills}: back in ${Date.now() - t0} ms; ${ledger.acknowledged()} writes acknowledged of ${ledger.attempted}`);
    }
    // A last stretch of load on the final server, then stop.
    await sleep(minLoad);
    stopping = true;
    await loadDone;
    if (loopError) throw loopError;

    // ------------------------------------------------------------ the checks
    const figures: Figure[] = [];
    const fig = (name: string, value: string, pass: boolean | null, detail?: string) => figures.push({ suite: `${SUITE} (${o.dialect})`, name, value, pass, detail });
    fig('kills (SIGKILL, then start on the same data)', `${o.kills}; restart median ${median(downtimes)} ms`, null);
    fig('writes attempted / acknowledged', `${ledger.attempted} / ${ledger.acknowledged()}`, ledger.acknowledged() > 0 ? null : false,
      'no write was acknowledged: the load never ran');

    const lost: string[] = [];
    const gaps: string[] = [];
    const duplicates: string[] = [];
    let unacknowledgedButThere = 0;
    for (const repo of repos) {
      const r = `/repos/${LOGIN}/${repo}`;
      const issues = await listAll(api, token, `${r}/issues?state=all&direction=asc`);
      const byNumber = new Map<number, Record<string, unknown>>();
      const titles = new Map<string, number[]>();
      for (const issue of issues) {
        const n = Number(issue.number);
        if (byNumber.has(n)) duplicates.push(`${repo}#${n} listed twice`);
        byNumber.set(n, issue);
        const t = String(issue.title);
        titles.set(t, [...(titles.get(t) ?? []), n]);
      }
      for (const [t, ns] of titles) if (ns.length > 1) duplicates.push(`${repo}: "${t}" created as #${ns.join(', #')}`);
      const max = Math.max(0, ...byNumber.keys());
      for (let n = 1; n <= max; n++) if (!byNumber.has(n)) gaps.push(`${repo}#${n}`);
      const acked = new Set(ledger.issues.filter((i) => i.repo === repo).map((i) => i.title));
      for (const issue of issues) if (!acked.has(String(issue.title))) unacknowledgedButThere++;
      for (const i of ledger.issues.filter((x) => x.repo === repo)) {
        const found = i.number === null ? titles.has(i.title) : byNumber.get(i.number)?.title === i.title;
        if (!found) lost.push(`issue ${repo}#${i.number ?? '?'} "${i.title}": ${i.number !== null && byNumber.has(i.number) ? `#${i.number} is "${String(byNumber.get(i.number)!.title)}"` : 'not there'}`);
      }
      const labelsOf = new Map<number, Set<string>>();
      for (const issue of issues) labelsOf.set(Number(issue.number), new Set((issue.labels as { name: string }[]).map((l) => l.name)));
      for (const l of ledger.labels.filter((x) => x.repo === repo)) {
        if (!labelsOf.get(l.issue)?.has(l.name)) lost.push(`label ${l.name} on ${repo}#${l.issue}: not there (labels: ${[...(labelsOf.get(l.issue) ?? [])].join(', ') || 'none'})`);
      }
      const comments = await listAll(api, token, `${r}/issues/comments`);
      const commentById = new Map(comments.map((c) => [Number(c.id), c]));
      const bodies = new Set(comments.map((c) => String(c.body)));
      for (const c of ledger.comments.filter((x) => x.repo === repo)) {
        const there = c.id === null ? bodies.has(c.body) : commentById.get(c.id)?.body === c.body && String(commentById.get(c.id)?.issue_url).endsWith(`/issues/${c.issue}`);
        if (!there) lost.push(`comment ${c.id ?? '?'} on ${repo}#${c.issue} "${c.body}": ${c.id !== null && commentById.has(c.id) ? 'different content' : 'not there'}`);
      }
      for (const s of ledger.refs.filter((x) => x.repo === repo)) {
        const a = await call(api, token, 'GET', `${r}/git/${s.ref.replace(/^refs\//, 'ref/')}`);
        const sha = a.status === 200 ? String((a.json as { object: { sha: string } }).object.sha) : null;
        if (s.acked === null) continue; // never acknowledged: there or not, at any sha written
        if (sha === null) lost.push(`ref ${repo} ${s.ref}: not there (last acknowledged ${s.acked})`);
        else if (sha !== s.acked && !s.pending.has(sha)) lost.push(`ref ${repo} ${s.ref}: at ${sha}, last acknowledged ${s.acked}`);
      }
      for (const p of ledger.pushes.filter((x) => x.repo === repo)) {
        const a = await call(api, token, 'GET', `${r}/compare/${p.sha}...${p.branch}`);
        const status = (a.json as { status?: string } | null)?.status;
        if (a.status !== 200 || (status !== 'identical' && status !== 'ahead')) lost.push(`push ${repo} ${p.sha} to ${p.branch}: ${a.status === 200 ? `branch is ${status} of it` : `compare answered ${a.status}`}`);
      }
    }
    fig('acknowledged writes lost', `${lost.length} of ${ledger.acknowledged()}`, lost.length === 0, sample(lost));
    fig('  of which issues / comments / labels / refs / pushes acknowledged',
      `${ledger.issues.length} / ${ledger.comments.length} / ${ledger.labels.length} / ${ledger.refs.reduce((n, s) => n + s.ackedWrites, 0)} / ${ledger.pushes.length}`, null);
    fig('issue numbers used twice', String(duplicates.length), duplicates.length === 0, sample(duplicates));
    fig('issue number gaps (expected 0: allocated in the issue\'s transaction)', String(gaps.length), null, sample(gaps));
    fig('issues there that were never acknowledged (killed after commit)', String(unacknowledgedButThere), null);

    // Repositories: git fsck, and the refs on disk are the API's.
    const fsckBad: string[] = [];
    const refsBad: string[] = [];
    for (const repo of repos) {
      const info = await callOk(api, token, 'GET', `/repos/${LOGIN}/${repo}`);
      const dir = path.join(dataDir, 'repos', `${Number(info.id)}.git`);
      const fsck = await git(['fsck', '--no-progress', '--no-dangling', '--strict'], dir, 120_000);
      if (fsck.code !== 0) fsckBad.push(`${repo} (${dir}): ${fsck.stderr.trim().split('\n').slice(0, 3).join(' | ')}`);
      const onDisk = (await gitOk(['for-each-ref', '--format=%(refname) %(objectname)'], dir)).trim().split('\n').filter(Boolean).sort();
      const listed = await call(api, token, 'GET', `/repos/${LOGIN}/${repo}/git/refs`);
      const viaApi = (listed.status === 200 ? [listed.json].flat() as { ref: string; object: { sha: string } }[] : [])
        .map((x) => `${x.ref} ${x.object.sha}`).sort();
      const diskOnly = onDisk.filter((x) => !viaApi.includes(x));
      const apiOnly = viaApi.filter((x) => !onDisk.includes(x));
      if (diskOnly.length || apiOnly.length) refsBad.push(`${repo}: on disk only [${diskOnly.join(', ')}], API only [${apiOnly.join(', ')}]`);
    }
    fig('repositories passing git fsck --strict', `${repos.length - fsckBad.length} of ${repos.length}`, fsckBad.length === 0, sample(fsckBad));
    fig('repositories whose refs on disk are GET …/git/refs', `${repos.length - refsBad.length} of ${repos.length}`, refsBad.length === 0, sample(refsBad));

    // Webhooks: wait (polling) until every acknowledged write's event has arrived, then
    // until the receiver has been quiet for a second (late redeliveries).
    // Ancestors of each pushed sha, from the local clones (which have every commit made, acknowledged or not).
    const ancestors = new Map<string, Set<string>>();
    const ancestry = async (repo: string, sha: string) => {
      if (ancestors.has(`${repo}:${sha}`)) return;
      const r = await git(['rev-list', sha], clones.get(repo)!);
      ancestors.set(`${repo}:${sha}`, new Set(r.code === 0 ? r.stdout.trim().split('\n') : [sha]));
    };
    const contains = (repo: string, after: string, sha: string) => ancestors.get(`${repo}:${after}`)?.has(sha) ?? after === sha;
    const expected: { what: string; matches: (d: Delivery) => boolean }[] = [
      ...ledger.issues.filter((i) => i.number !== null).map((i) => ({
        what: `issues/opened ${i.repo}#${i.number}`, matches: (d: Delivery) => d.key === `issues:opened:${i.repo}#${i.number}:`,
      })),
      ...ledger.comments.filter((c) => c.id !== null).map((c) => ({
        what: `issue_comment/created ${c.repo} ${c.id}`, matches: (d: Delivery) => d.key === `issue_comment:created:${c.repo}:${c.id}`,
      })),
      ...ledger.pushes.map((p) => ({
        // Its own push event, or a later one of the branch that contains it (a push
        // recovered from the journal at start may be reported together with the next).
        what: `push ${p.repo} ${p.sha}`,
        matches: (d: Delivery) => d.event === 'push' && d.repo === p.repo && d.after !== null && contains(p.repo, d.after, p.sha),
      })),
    ];
    const drainDeadline = Date.now() + (o.drainTimeoutMs ?? 90_000);
    const drainStart = Date.now();
    let missing = expected;
    for (;;) {
      for (const d of receiver.deliveries) if (d.after && /^[0-9a-f]{40}$/.test(d.after) && !/^0+$/.test(d.after)) await ancestry(d.repo, d.after);
      missing = missing.filter((e) => !receiver.deliveries.some(e.matches));
      if ((missing.length === 0 && Date.now() - receiver.lastAt > 1000) || Date.now() > drainDeadline) break;
      await sleep(100);
    }
    const guids = new Map<string, Set<string>>();
    const keys = new Map<string, Set<string>>();
    const receipts = new Map<string, number>();
    for (const d of receiver.deliveries) {
      if (!guids.has(d.guid)) guids.set(d.guid, new Set());
      guids.get(d.guid)!.add(d.key);
      if (!keys.has(d.key)) keys.set(d.key, new Set());
      keys.get(d.key)!.add(d.guid);
      receipts.set(d.guid, (receipts.get(d.guid) ?? 0) + 1);
    }
    const guidShared = [...guids].filter(([, k]) => k.size > 1).map(([g, k]) => `${g}: ${[...k].join(', ')}`);
    const eventTwice = [...keys].filter(([k, g]) => g.size > 1 && !k.startsWith('ping')).map(([k, g]) => `${k}: ${[...g].join(', ')}`);
    const redelivered = [...receipts.values()].filter((n) => n > 1).length;
    fig('acknowledged writes whose webhook never arrived', `${missing.length} of ${expected.length} (drained in ${Date.now() - drainStart} ms)`, missing.length === 0, sample(missing.map((m) => m.what)));
    fig('deliveries received / distinct delivery ids', `${receiver.deliveries.length} / ${guids.size}`, null);
    fig('delivery ids received more than once (at-least-once redelivery)', String(redelivered), null);
    // Push events apart (a known bug, not a crash one): an API ref write and a git push
    // to the same repository at the same time each record the other's ref change too.
    const pushTwice = eventTwice.filter((k) => k.startsWith('push:'));
    const otherTwice = eventTwice.filter((k) => !k.startsWith('push:'));
    fig('issue and comment events delivered under more than one delivery id', String(otherTwice.length), otherTwice.length === 0, sample(otherTwice));
    fig(PUSH_EVENTS_TWICE, String(pushTwice.length), pushTwice.length === 0, sample(pushTwice));
    fig('delivery ids used for different events', String(guidShared.length), guidShared.length === 0, sample(guidShared));

    return { dialect: o.dialect, figures, acknowledged: ledger.acknowledged(), attempted: ledger.attempted, kills: o.kills, seconds: (Date.now() - started) / 1000 };
  } catch (err) {
    if (server.child) (err as Error).message += `\nlast output of ${server.child.name}:\n${server.child.output().slice(-3000)}`;
    throw err;
  } finally {
    if (server.child) await server.child.stop(5000);
    await receiver.stop();
    fs.rmSync(work, { recursive: true, force: true });
    await dropSchema(o.databaseUrl, schema);
  }
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
