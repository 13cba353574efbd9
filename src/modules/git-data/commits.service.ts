// Commits and branches as the repository API shows them: history pages with
// upstream's filters, one commit with its files, its diff and patch, branches.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { isIsoTimestamp, storedTimestamp } from '../../domain/clock.ts';
import { BadRequestError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { countLog, diffFiles, diffText, logShas, patchText, type FileChange, type LogFilter } from '../../git/history.ts';
import { isValidRefName } from '../../git/ref-format.ts';
import { peel } from '../../git/objects.ts';
import { ruleFor, type ProtectionRule } from '../branch-protection/protection.model.ts';
import * as protection from '../branch-protection/protection.service.ts';
import { activeRulesets, rulesetProtects, rulesetsOfRef } from '../branch-protection/ref-rules.service.ts';
import * as git from '../../git/repository.ts';
import type { Repo } from '../repos/repos.model.ts';
import { noreplyEmail } from '../repos/repos.init.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { isPlainRevision, loadCommits, openRepo, requireNotEmpty, type CommitData } from './git-data.repository.ts';
import { networkCommitDir } from './commits.network.ts';
import { pathProblem } from './git-data.trees.ts';

/** A commit with the Wharf users its author and committer addresses belong to. */
export interface CommitRecordData {
  commit: CommitData;
  author: Account | null;
  committer: Account | null;
}

const NOREPLY = /^(\d+)\+([^@]+)@users\.noreply\./i;

/**
 * The Wharf user behind each commit address (null for none), in two queries for the
 * whole lot: by primary or verified address, and by noreply address ({id}+{login}@…).
 * Commit lists and commit search match authors and committers by it.
 */
export async function accountsOfAddresses(ctx: AppContext, addresses: readonly string[]): Promise<(email: string) => Account | null> {
  const emails = [...new Set(addresses.filter(Boolean))];
  const noreplyIds = emails.map((e) => NOREPLY.exec(e)).filter((m) => m !== null).map((m) => Number(m[1]));
  const [byEmail, byId] = await Promise.all([
    users.accountsByEmails(ctx, emails.filter((e) => !NOREPLY.test(e))),
    users.accountsByIds(ctx, noreplyIds),
  ]);
  return (email: string): Account | null => {
    const m = NOREPLY.exec(email);
    if (m) {
      const account = byId.get(Number(m[1]));
      return account && account.type === 'User' && account.login.toLowerCase() === m[2]!.toLowerCase() ? account : null;
    }
    return byEmail.get(email.toLowerCase()) ?? null;
  };
}

/** `commits` with the users behind their author and committer addresses. */
async function withUsers(ctx: AppContext, commits: CommitData[]): Promise<CommitRecordData[]> {
  const find = await accountsOfAddresses(ctx, commits.flatMap((c) => [c.parsed.author.email, c.parsed.committer.email]));
  return commits.map((commit) => ({ commit, author: find(commit.parsed.author.email), committer: find(commit.parsed.committer.email) }));
}

/** One commit (a full sha) with the users behind its addresses, or null; for other areas' records (the status event). */
export async function commitRecordData(ctx: AppContext, dir: string, sha: string): Promise<CommitRecordData | null> {
  const commit = (await loadCommits(ctx, dir, [sha])).get(sha);
  return commit ? (await withUsers(ctx, [commit]))[0]! : null;
}

/** Commits (full shas, in the order given) with the users behind their addresses; for pull request commit lists. */
export async function commitRecordsData(ctx: AppContext, dir: string, shas: readonly string[]): Promise<CommitRecordData[]> {
  const loaded = await loadCommits(ctx, dir, shas);
  return withUsers(ctx, shas.flatMap((s) => { const c = loaded.get(s); return c ? [c] : []; }));
}

/** The commit a branch, tag or sha names, or null. */
async function commitOf(dir: string, ref: string): Promise<string | null> {
  return isPlainRevision(ref) ? peel(dir, ref, 'commit') : null;
}

// ---------------------------------------------------------------- lists

export interface ListCommitsQuery {
  sha?: string;
  path?: string;
  author?: string;
  committer?: string;
  since?: string;
  until?: string;
  offset: number;
  limit: number;
}

export interface CommitPage {
  repo: Repo;
  items: CommitRecordData[];
  total: number;
}

/**
 * A login or an address as a filter of commit addresses. A login stands for its
 * user's address and noreply address; one that names no user matches nothing.
 */
async function addressesOf(ctx: AppContext, value: string): Promise<string[]> {
  if (value.includes('@')) return [value];
  const account = await users.findAccount(ctx, value);
  if (!account || account.type !== 'User') return [];
  return [account.email, noreplyEmail(ctx, account)].filter((e): e is string => Boolean(e));
}

/**
 * The shared ISO check, but a bad value is a 400 here, not the schema's 422: upstream
 * answers list-commits so and the commits tests hold Wharf to it.
 */
function timeFilter(field: 'since' | 'until', value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isIsoTimestamp(value)) throw new BadRequestError(`Invalid value for ${field}: ${value} is not an ISO 8601 timestamp (YYYY-MM-DDTHH:MM:SSZ).`);
  return storedTimestamp(value);
}

export async function listCommits(ctx: AppContext, actor: Actor, owner: string, name: string, q: ListCommitsQuery): Promise<CommitPage> {
  const r = await openRepo(ctx, actor, owner, name);
  await requireNotEmpty(r);
  const filter: LogFilter = {
    path: q.path?.replace(/^\/+|\/+$/g, '') || undefined,
    since: timeFilter('since', q.since),
    until: timeFilter('until', q.until),
  };
  const start = q.sha || r.repo.defaultBranch;
  const from = await commitOf(r.dir, start);
  if (!from) throw new NotFoundError(`No commit found for SHA: ${start}`);
  if (q.author) filter.authorEmails = await addressesOf(ctx, q.author);
  if (q.committer) filter.committerEmails = await addressesOf(ctx, q.committer);
  // A path git cannot hold, or a login without a user, selects nothing.
  const none = (filter.path !== undefined && pathProblem(filter.path) !== null) || filter.authorEmails?.length === 0 || filter.committerEmails?.length === 0;
  if (none) return { repo: r.repo, items: [], total: 0 };
  const shas = await logShas(r.dir, from, filter, q.offset, q.limit);
  // A short page is the last one: counting the whole history is needed only otherwise.
  const total = shas.length < q.limit && (shas.length > 0 || q.offset === 0) ? q.offset + shas.length : await countLog(r.dir, from, filter);
  const loaded = await loadCommits(ctx, r.dir, shas);
  const items = await withUsers(ctx, shas.map((s) => loaded.get(s)!).filter(Boolean));
  return { repo: r.repo, items, total };
}

// ---------------------------------------------------------------- one commit

export interface CommitDetail extends CommitRecordData {
  repo: Repo;
  /** This page of the changed files. */
  files: FileChange[];
  /** Totals over every changed file. */
  stats: { additions: number; deletions: number; total: number };
  /** How many files changed (for the pages of `files`). */
  fileCount: number;
}

async function requireCommit(ctx: AppContext, actor: Actor, owner: string, name: string, ref: string) {
  const r = await openRepo(ctx, actor, owner, name);
  await requireNotEmpty(r);
  const own = await commitOf(r.dir, ref);
  // A commit only a readable fork (or other relative) has reads here too, as upstream.
  const dir = own ? r.dir : await networkCommitDir(ctx, actor, r.repo, ref);
  const sha = own ?? (dir ? ref.toLowerCase() : null);
  if (!sha || !dir) throw new ValidationError([{ resource: 'Commit', field: 'ref', code: 'invalid', message: `No commit found for SHA: ${ref}` }], `No commit found for SHA: ${ref}`);
  const commit = (await loadCommits(ctx, dir, [sha])).get(sha)!;
  // `dir` holds the commit: the diff and patch are read there too.
  return { r, dir, commit };
}

/** Upstream lists up to 300 files a page and 3000 in all. */
export const FILES_PER_PAGE = 300;
const MAX_FILES = 3000;

export async function getCommit(
  ctx: AppContext, actor: Actor, owner: string, name: string, ref: string, page: { offset: number; limit: number },
): Promise<CommitDetail> {
  const { r, dir, commit } = await requireCommit(ctx, actor, owner, name, ref);
  // A merge commit's files are what it changed against its first parent, as upstream shows them.
  const all = await diffFiles(dir, commit.parsed.parents[0] ?? null, commit.sha, MAX_FILES);
  const additions = all.reduce((n, f) => n + f.additions, 0);
  const deletions = all.reduce((n, f) => n + f.deletions, 0);
  const [record] = await withUsers(ctx, [commit]);
  return {
    ...record!, repo: r.repo, files: all.slice(page.offset, page.offset + page.limit),
    stats: { additions, deletions, total: additions + deletions }, fileCount: all.length,
  };
}

/** The diff or patch media type of a commit, or its sha. */
export async function getCommitText(ctx: AppContext, actor: Actor, owner: string, name: string, ref: string, kind: 'diff' | 'patch' | 'sha'): Promise<string> {
  const { dir, commit } = await requireCommit(ctx, actor, owner, name, ref);
  if (kind === 'sha') return commit.sha;
  if (kind === 'diff') return diffText(dir, commit.parsed.parents[0] ?? null, commit.sha);
  return patchText(dir, commit.sha, commit.parsed.parents.length > 1);
}

// ---------------------------------------------------------------- branches

export interface BranchPage {
  repo: Repo;
  /**
   * Each branch with the classic rule covering it, and whether it is protected: by that
   * rule or by an active ruleset covering it.
   */
  branches: { name: string; sha: string; rule: ProtectionRule | null; protected: boolean }[];
  total: number;
}

/**
 * Branches in name order; `protected` true or false keeps only those a classic rule or
 * an active ruleset does or does not cover. The repository's rules and rulesets are read
 * once for the whole list.
 */
export async function listBranches(
  ctx: AppContext, actor: Actor, owner: string, name: string, q: { protected?: boolean; offset: number; limit: number },
): Promise<BranchPage> {
  const r = await openRepo(ctx, actor, owner, name);
  const [heads, rules, sets] = await Promise.all([
    git.listRefs(r.dir, ['refs/heads/']), protection.rulesOf(ctx, r.repo.id), activeRulesets(ctx, r.repo),
  ]);
  const all = heads.map((h) => {
    const branch = h.ref.slice('refs/heads/'.length);
    const rule = ruleFor(rules, branch);
    return { name: branch, sha: h.sha, rule, protected: rule !== null || rulesetProtects(sets, r.repo.defaultBranch, branch) };
  }).filter((b) => q.protected === undefined || b.protected === q.protected);
  return { repo: r.repo, branches: all.slice(q.offset, q.offset + q.limit), total: all.length };
}

export interface BranchDetail extends CommitRecordData {
  repo: Repo;
  name: string;
  /** The classic protection rule covering the branch, if any. */
  rule: ProtectionRule | null;
  /** Covered by that rule or by an active ruleset. */
  protected: boolean;
}

export async function getBranch(ctx: AppContext, actor: Actor, owner: string, name: string, branch: string): Promise<BranchDetail> {
  const r = await openRepo(ctx, actor, owner, name);
  const ref = `refs/heads/${branch}`;
  const head = isValidRefName(ref) ? (await git.listRefs(r.dir, [ref])).find((e) => e.ref === ref) : undefined;
  if (!head) throw new NotFoundError('Branch not found');
  const commit = (await loadCommits(ctx, r.dir, [head.sha])).get(head.sha);
  if (!commit) throw new NotFoundError('Branch not found');
  const [record] = await withUsers(ctx, [commit]);
  const [rule, sets] = await Promise.all([protection.ruleOfBranch(ctx, r.repo.id, branch), rulesetsOfRef(ctx, r.repo, ref)]);
  return { ...record!, repo: r.repo, name: branch, rule, protected: rule !== null || rulesetProtects(sets, r.repo.defaultBranch, branch) };
}
