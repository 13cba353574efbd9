// The PostgreSQL restart part's other channels (faults-postgres.ts runs the REST load):
// GraphQL and git over HTTP under the same outages.
//   - GraphQL: createIssue mutations and repository queries in a loop. While PostgreSQL
//     is down each must answer 503 in the spec's error body with Retry-After, as REST
//     does (the HTTP status is what says "try again later" to a client; a 200 with an
//     error entry reads as a failed query); never a 500, never a hang. Every
//     acknowledged mutation (200, the issue's number, no errors) is there afterwards.
//   - git over HTTP: ls-remote, clone, fetch and push of a new commit in a loop, in
//     a repository of their own. While PostgreSQL is down each must exit non-zero
//     within the time limit with git's "returned error: 503"; afterwards the repository
//     passes git fsck, its refs on disk are the API's, every acknowledged push (git
//     exited 0) is on the branch and recorded as a push event (events API), pushes made
//     while the database went away included (their recording is retried).
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { git, gitOk } from './git.ts';
import { call, callOk, isErrorBody, LOGIN, sample, sleep, tally, USER_AGENT, type AddFigure, type Wharf } from './faults-common.ts';

export interface Span { start: number; end: number }
type GraphQLKind = 'mutation' | 'query';
interface GraphQLSample extends Span { kind: GraphQLKind; status: number; retryAfter: string | null; body: unknown; error?: string }
type GitKind = 'ls-remote' | 'clone' | 'fetch' | 'push';
interface GitSample extends Span { kind: GitKind; code: number; stderr: string }

export interface ChannelLoad {
  /** Stops the loops (each finishes its call in flight). */
  stop(): Promise<void>;
  /** The figures, given which calls fell wholly inside an outage. */
  report(fig: AddFigure, inOutage: (s: Span) => boolean): Promise<void>;
}

const MUTATION = 'mutation($input: CreateIssueInput!) { createIssue(input: $input) { issue { number title } } }';
const QUERY = 'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { issues(last: 3) { totalCount nodes { number title } } } }';

async function postGraphQL(base: string, token: string, body: unknown, timeoutMs: number): Promise<Omit<GraphQLSample, 'kind' | 'start' | 'end'>> {
  try {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'user-agent': USER_AGENT, authorization: `bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let json: unknown = text;
    try { json = JSON.parse(text); } catch { /* kept as text */ }
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: json };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
    return { status: 0, retryAfter: null, body: null, error: timedOut ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.message) };
  }
}

/** A GraphQL success: 200, data, no errors. */
function graphqlOk(s: GraphQLSample): boolean {
  const b = s.body as { data?: unknown; errors?: unknown[] } | null;
  return s.status === 200 && !!b?.data && !b.errors?.length;
}

/** A clean refusal for want of the database: 503 in the spec's error body, with Retry-After. */
function graphqlUnavailable(s: GraphQLSample): boolean {
  return s.status === 503 && isErrorBody(s.body) && s.retryAfter !== null;
}

/** git's words for a 503 of a smart-HTTP request. */
const GIT_503 = /returned error: 503/;

export type Channel = 'graphql' | 'git';

export async function startChannelLoad(
  w: Wharf, token: string, o: { channels: readonly Channel[]; work: string; issuesRepo: string; requestTimeoutMs: number; gitTimeoutMs: number },
): Promise<ChannelLoad> {
  const withGit = o.channels.includes('git');
  const withGraphQL = o.channels.includes('graphql');
  const repoInfo = await callOk(w.base, token, 'GET', `/repos/${LOGIN}/${o.issuesRepo}`);
  const repositoryId = String(repoInfo.node_id);
  const gitRepo = `${o.issuesRepo}-git`;
  const gitInfo = withGit ? await callOk(w.base, token, 'POST', '/user/repos', { name: gitRepo, auto_init: true }) : {};
  const remote = new URL(`${w.base}/${LOGIN}/${gitRepo}.git`);
  remote.username = LOGIN;
  remote.password = token;
  const clone = path.join(o.work, 'clone');
  if (withGit) {
    await gitOk(['clone', '-q', remote.toString(), clone]);
    await gitOk(['checkout', '-q', '-b', 'faults'], clone);
  }

  const gqlSamples: GraphQLSample[] = [];
  const ackedMutations: { number: number; title: string }[] = [];
  const gitSamples: GitSample[] = [];
  const ackedPushes: string[] = [];
  let stopping = false;

  const graphqlLoop = async () => {
    for (let i = 0; !stopping; i++) {
      const kind: GraphQLKind = i % 2 === 0 ? 'mutation' : 'query';
      const title = `graphql fault ${randomUUID()}`;
      const body = kind === 'mutation'
        ? { query: MUTATION, variables: { input: { repositoryId, title } } }
        : { query: QUERY, variables: { owner: LOGIN, name: o.issuesRepo } };
      const start = performance.now();
      const a = await postGraphQL(w.base, token, body, o.requestTimeoutMs);
      const s: GraphQLSample = { kind, start, end: performance.now(), ...a };
      gqlSamples.push(s);
      const issue = (s.body as { data?: { createIssue?: { issue?: { number?: unknown } } } } | null)?.data?.createIssue?.issue;
      if (kind === 'mutation' && graphqlOk(s) && typeof issue?.number === 'number') ackedMutations.push({ number: issue.number, title });
      if (!graphqlOk(s)) await sleep(20);
    }
  };

  let n = 0;
  const runGit = async (kind: GitKind, args: string[], cwd?: string) => {
    const start = performance.now();
    const r = await git(args, cwd, o.gitTimeoutMs);
    gitSamples.push({ kind, start, end: performance.now(), code: r.code, stderr: r.stderr.trim() });
    return r.code === 0;
  };
  const gitLoop = async () => {
    for (let i = 0; !stopping; i++) {
      await runGit('ls-remote', ['ls-remote', remote.toString()]);
      if (i % 4 === 0) {
        const dir = path.join(o.work, `clone-${i}`);
        await runGit('clone', ['clone', '-q', remote.toString(), dir]);
        fs.rmSync(dir, { recursive: true, force: true });
      } else {
        await runGit('fetch', ['fetch', '-q', 'origin'], clone);
      }
      fs.writeFileSync(path.join(clone, 'pushed.txt'), `push ${++n}\n`);
      await gitOk(['commit', '-q', '-a', '-m', `faults push ${n}`], clone).catch(async () => {
        await gitOk(['add', '-A'], clone);
        await gitOk(['commit', '-q', '-m', `faults push ${n}`], clone);
      });
      const sha = (await gitOk(['rev-parse', 'HEAD'], clone)).trim();
      if (await runGit('push', ['push', '-q', 'origin', 'HEAD:refs/heads/faults'], clone)) ackedPushes.push(sha);
      else await sleep(50);
    }
  };
  const loops = Promise.all([withGraphQL ? graphqlLoop() : null, withGit ? gitLoop() : null]);

  return {
    async stop() {
      stopping = true;
      await loops;
    },
    async report(fig, inOutage) {
      if (withGraphQL) await reportGraphQL(fig, inOutage);
      if (withGit) await reportGit(fig, inOutage);
    },
  };

  async function reportGraphQL(fig: AddFigure, inOutage: (s: Span) => boolean): Promise<void> {
    // ------------------------------------------------------------ GraphQL
    const gDuring = gqlSamples.filter(inOutage);
    const gNotClean = gDuring.filter((s) => !graphqlUnavailable(s));
    const describe = (s: GraphQLSample) => `${s.kind}: ${s.status || s.error} retry-after ${s.retryAfter} ${JSON.stringify(s.body)?.slice(0, 200)}`;
    fig('GraphQL while PostgreSQL was down: answers (all 503 with Retry-After)', `${gDuring.length}: ${tally(gDuring.map((s) => s.status || s.error || 0))}`,
      gDuring.length > 0 && gNotClean.length === 0, gDuring.length === 0 ? 'no GraphQL call fell inside an outage' : sample(gNotClean.map(describe)));
    const gBad = gqlSamples.filter((s) => !graphqlOk(s) && !graphqlUnavailable(s));
    fig('GraphQL answers other than success or clean 503 over the whole run', `${gBad.length} of ${gqlSamples.length}`, gBad.length === 0, sample(gBad.map(describe)));
    const gSlowest = Math.max(0, ...gDuring.map((s) => s.end - s.start));
    fig('GraphQL: slowest answer while PostgreSQL was down', `${Math.round(gSlowest)} ms`, gDuring.length > 0 ? gSlowest < o.requestTimeoutMs : null);
    const present = new Map<number, string>();
    for (let page = 1; ; page++) {
      const items = await callOk(w.base, token, 'GET', `/repos/${LOGIN}/${o.issuesRepo}/issues?state=all&per_page=100&page=${page}`) as unknown as { number: number; title: string }[];
      for (const i of items) present.set(i.number, i.title);
      if (items.length < 100) break;
    }
    const lost = ackedMutations.filter((a) => present.get(a.number) !== a.title).map((a) => `#${a.number} "${a.title}"`);
    fig('GraphQL: acknowledged createIssue mutations lost', `${lost.length} of ${ackedMutations.length}`, ackedMutations.length > 0 && lost.length === 0,
      ackedMutations.length === 0 ? 'no mutation was acknowledged' : sample(lost));
    const refused = gqlSamples.filter((s) => s.kind === 'mutation' && s.status === 503).length;
    fig('GraphQL: mutations refused (503)', String(refused), null);
  }

  async function reportGit(fig: AddFigure, inOutage: (s: Span) => boolean): Promise<void> {
    // ------------------------------------------------------------ git over HTTP
    const dDuring = gitSamples.filter(inOutage);
    const dNotClean = dDuring.filter((s) => s.code === 0 || !GIT_503.test(s.stderr));
    const describeGit = (s: GitSample) => `${s.kind}: exit ${s.code} after ${Math.round(s.end - s.start)} ms: ${s.stderr.split('\n').slice(-2).join(' | ').slice(0, 200)}`;
    fig('git over HTTP while PostgreSQL was down: commands (all exit non-zero on a 503)',
      `${dDuring.length}: ${tally(dDuring.map((s) => `${s.kind} ${s.code === 0 ? 'ok' : GIT_503.test(s.stderr) ? '503' : `exit ${s.code}`}`))}`,
      dDuring.length > 0 && dNotClean.length === 0, dDuring.length === 0 ? 'no git command fell inside an outage' : sample(dNotClean.map(describeGit)));
    const dBad = gitSamples.filter((s) => s.code !== 0 && !GIT_503.test(s.stderr));
    fig('git commands failing other than on a 503 over the whole run', `${dBad.length} of ${gitSamples.length}`, dBad.length === 0, sample(dBad.map(describeGit)));
    const dSlowest = Math.max(0, ...dDuring.map((s) => s.end - s.start));
    fig('git: slowest command while PostgreSQL was down', `${Math.round(dSlowest)} ms`, dDuring.length > 0 ? dSlowest < o.gitTimeoutMs : null);

    const dir = path.join(w.dataDir, 'repos', `${Number(gitInfo.id)}.git`);
    const fsck = await git(['fsck', '--no-progress', '--no-dangling', '--strict'], dir, 120_000);
    fig('git: the repository passes git fsck --strict', fsck.code === 0 ? 'yes' : 'no', fsck.code === 0, fsck.stderr.slice(0, 500));
    const onDisk = (await gitOk(['for-each-ref', '--format=%(refname) %(objectname)'], dir)).trim().split('\n').filter(Boolean).sort();
    const listed = await call(w.base, token, 'GET', `/repos/${LOGIN}/${gitRepo}/git/refs`);
    const viaApi = (listed.status === 200 ? [listed.json].flat() as { ref: string; object: { sha: string } }[] : []).map((x) => `${x.ref} ${x.object.sha}`).sort();
    const differ = [...onDisk.filter((x) => !viaApi.includes(x)), ...viaApi.filter((x) => !onDisk.includes(x))];
    fig('git: refs on disk are GET …/git/refs', differ.length === 0 ? 'yes' : `${differ.length} differ`, differ.length === 0, sample(differ));

    // Each acknowledged push: on the branch (the API's tip descends from it), and
    // recorded as a push event naming it (its head, or among a later one's commits).
    const tip = await call(w.base, token, 'GET', `/repos/${LOGIN}/${gitRepo}/git/ref/heads/faults`);
    const tipSha = (tip.json as { object?: { sha?: string } } | null)?.object?.sha ?? '';
    const reachable = new Set(tipSha ? (await gitOk(['rev-list', tipSha], clone)).trim().split('\n') : []);
    const notOnBranch = ackedPushes.filter((sha) => !reachable.has(sha));
    const recorded = async () => {
      const seen = new Set<string>();
      for (let page = 1; page <= 3; page++) {
        const a = await call(w.base, token, 'GET', `/repos/${LOGIN}/${gitRepo}/events?per_page=100&page=${page}`);
        const events = (a.status === 200 ? a.json : []) as { type: string; payload: { head?: string; commits?: { sha: string }[] } }[];
        for (const e of events) {
          if (e.type !== 'PushEvent') continue;
          if (e.payload.head) seen.add(e.payload.head);
          for (const c of e.payload.commits ?? []) seen.add(c.sha);
        }
        if (events.length < 100) break;
      }
      return ackedPushes.filter((sha) => !seen.has(sha));
    };
    // Recording a push the database refused is retried once it is back: give it a while.
    let unrecorded = await recorded();
    for (const until = performance.now() + 20_000; unrecorded.length && performance.now() < until;) {
      await sleep(500);
      unrecorded = await recorded();
    }
    const lostPushes = [...new Set([...notOnBranch.map((s) => `${s}: not on the branch`), ...unrecorded.map((s) => `${s}: no push event`)])];
    fig('git: acknowledged pushes lost (not on the branch, or no push event)', `${lostPushes.length} of ${ackedPushes.length}`,
      ackedPushes.length > 0 && lostPushes.length === 0, ackedPushes.length === 0 ? 'no push was acknowledged' : sample(lostPushes));
    fig('git commands made (ls-remote / clone / fetch / push)',
      (['ls-remote', 'clone', 'fetch', 'push'] as const).map((k) => gitSamples.filter((s) => s.kind === k).length).join(' / '), null);
  }
}
