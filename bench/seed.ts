// The data `npm run bench` reads (issue #12, aims 1–3): repositories of the bench user,
// issues with labels and assignees, pull requests from branches made through the git
// data API, and a long history pushed over HTTP with git.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { importHistory, run, timed, wharfRemote } from './git-backend.ts';

const USER_AGENT = 'wharf-bench/1.0';

export interface Api {
  base: string;
  token: string;
  login: string;
}

export function apiHeaders(token: string): Record<string, string> {
  return { 'user-agent': USER_AGENT, authorization: `token ${token}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' };
}

export async function apiCall(api: Api, method: string, pathname: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${api.base}${pathname}`, { method, headers: apiHeaders(api.token), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${pathname} answered ${res.status}: ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
}

/** `total` jobs, `concurrency` at a time. */
export async function inParallel(total: number, concurrency: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, async () => {
    for (let i = next++; i < total; i = next++) await job(i);
  }));
}

export async function createRepo(api: Api, name: string, options: { private?: boolean; autoInit?: boolean; description?: string } = {}): Promise<void> {
  await apiCall(api, 'POST', '/user/repos', { name, private: options.private ?? false, auto_init: options.autoInit ?? false, ...(options.description ? { description: options.description } : {}) });
}

/** Repositories of the user up to `total` (counting those already there): `bench-listed-{i}`. */
export async function seedListedRepos(api: Api, existing: number, total: number): Promise<void> {
  await inParallel(Math.max(0, total - existing), 4, (i) =>
    createRepo(api, `bench-listed-${i + 1}`, { private: i % 2 === 0, description: `Listed repository ${i + 1}` }));
}

const LABEL_SETS = [['bug', 'help wanted'], ['enhancement', 'question'], ['documentation', 'good first issue']];

/** `count` issues in owner/repo, two labels and the user assigned on each. */
export async function seedIssues(api: Api, repo: string, count: number): Promise<void> {
  await inParallel(count, 8, async (i) => {
    await apiCall(api, 'POST', `/repos/${api.login}/${repo}/issues`, {
      title: `Listed issue ${i}`, body: `Body of issue ${i}, see #${Math.max(1, i)}`, labels: LABEL_SETS[i % LABEL_SETS.length], assignees: [api.login],
    });
  });
}

/**
 * `count` open pull requests in owner/repo (which has a main branch): one commit made
 * through the git data API on top of main, a branch at it per pull request, each
 * labelled and assigned as the issues are.
 */
export async function seedPulls(api: Api, repo: string, count: number): Promise<void> {
  const r = `/repos/${api.login}/${repo}`;
  const main = await apiCall(api, 'GET', `${r}/git/ref/heads/main`);
  const mainSha = String((main.object as { sha: string }).sha);
  const mainCommit = await apiCall(api, 'GET', `${r}/git/commits/${mainSha}`);
  const baseTree = String((mainCommit.tree as { sha: string }).sha);
  const tree = await apiCall(api, 'POST', `${r}/git/trees`, { base_tree: baseTree, tree: [{ path: 'feature.txt', mode: '100644', type: 'blob', content: 'A feature.\n' }] });
  const commit = await apiCall(api, 'POST', `${r}/git/commits`, { message: 'Add a feature', tree: tree.sha, parents: [mainSha] });
  await inParallel(count, 4, async (i) => {
    await apiCall(api, 'POST', `${r}/git/refs`, { ref: `refs/heads/feature-${i}`, sha: commit.sha });
    const pull = await apiCall(api, 'POST', `${r}/pulls`, { title: `Feature ${i}`, head: `feature-${i}`, base: 'main', body: `Adds feature ${i}.` });
    await apiCall(api, 'POST', `${r}/issues/${String(pull.number)}/labels`, { labels: LABEL_SETS[i % LABEL_SETS.length] });
    await apiCall(api, 'POST', `${r}/issues/${String(pull.number)}/assignees`, { assignees: [api.login] });
  });
}

export interface History {
  /** The local bare repository it was pushed from. */
  source: string;
  seed: string;
  commits: number;
  /** How long the push to Wharf took. */
  pushMs: number;
}

/** A `commits`-long linear history made with fast-import and pushed to a new Wharf repository. */
export async function seedHistory(api: Api, work: string, repo: string, commits: number): Promise<History> {
  const seed = randomBytes(4).toString('hex');
  const source = path.join(work, 'history.git');
  await importHistory(source, seed, commits);
  await createRepo(api, repo, { private: true });
  const pushMs = await timed(() => run('git', ['--git-dir', source, 'push', '-q', wharfRemote(api.base, api.login, api.token, repo), 'main']));
  return { source, seed, commits, pushMs };
}
