// The refs pages' data: branches (with their protection), tags, releases with their
// assets, and a comparison of two commits, read through the services the API uses
// (git-data's branches, releases' tags and releases, compare) with the viewer as actor.
// Each list is one service call, then one bulk read of the tips' commits; a branch's
// distance from the default branch comes from the git layer's memoized counts.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ConflictError, NotFoundError } from '../../domain/errors.ts';
import { countRange } from '../../git/compare.ts';
import { compareCommits, MAX_UNPAGED_COMMITS, type Comparison } from '../compare/compare.service.ts';
import * as commits from '../git-data/commits.service.ts';
import type { CommitRecordData } from '../git-data/commits.service.ts';
import { renderHtml } from '../markdown/markdown.service.ts';
import { listTags } from '../releases/release-tags.ts';
import type { TagRecord } from '../releases/releases.model.ts';
import { releaseDetails } from '../releases/releases.present.ts';
import * as releases from '../releases/releases.service.ts';
import type { ReleaseDetail } from '../releases/releases.views.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as pulls from '../pulls/pulls.service.ts';
import * as repos from '../repos/repos.service.ts';
import { PER_PAGE } from './web.service.ts';

/** The tips' commits by sha, read in one batch from the repository the list came from. */
async function commitsBySha(ctx: AppContext, repo: Repo, shas: readonly string[]): Promise<Map<string, CommitRecordData>> {
  const unique = [...new Set(shas)];
  if (!unique.length) return new Map();
  const found = await commits.commitRecordsData(ctx, repos.gitDir(ctx, repo), unique);
  return new Map(found.map((c) => [c.commit.sha, c]));
}

export interface BranchRow {
  name: string;
  sha: string;
  protected: boolean;
  commit: CommitRecordData | null;
  /** Commits ahead of and behind the default branch (null for the default branch itself, or when there is none). */
  divergence: { ahead: number; behind: number } | null;
}

export interface BranchesView {
  repo: Repo;
  /** The default branch (page 1 only; null when it does not exist yet). */
  defaultBranch: BranchRow | null;
  branches: BranchRow[];
  total: number;
  page: number;
}

/**
 * How far each branch of a page has moved from the default branch's tip: the commits
 * each has that the other lacks, counted by the git layer's memo (keyed by commit ids,
 * so a page read again starts no git process for a branch that has not moved).
 */
async function divergenceOf(ctx: AppContext, repo: Repo, defaultSha: string | null, shas: readonly string[]): Promise<Map<string, { ahead: number; behind: number }>> {
  const out = new Map<string, { ahead: number; behind: number }>();
  if (defaultSha === null) return out;
  const dir = repos.gitDir(ctx, repo);
  await Promise.all([...new Set(shas)].map(async (sha) => {
    const [ahead, behind] = sha === defaultSha ? [0, 0] : await Promise.all([countRange(dir, defaultSha, sha), countRange(dir, sha, defaultSha)]);
    out.set(sha, { ahead, behind });
  }));
  return out;
}

/** One page of branches in name order, as GET /repos/{o}/{r}/branches pages them, with the default branch shown first on page 1. */
export async function branchesOf(ctx: AppContext, actor: Actor, owner: string, name: string, page: number): Promise<BranchesView> {
  const list = await commits.listBranches(ctx, actor, owner, name, { offset: (page - 1) * PER_PAGE, limit: PER_PAGE });
  const repo = list.repo;
  // The default branch is read from the same listing when it is on this page; otherwise by name.
  let def: { name: string; sha: string; protected: boolean } | null = null;
  const here = list.branches.find((b) => b.name === repo.defaultBranch);
  if (here) def = { name: here.name, sha: here.sha, protected: here.protected };
  else {
    const found = await commits.getBranch(ctx, actor, owner, name, repo.defaultBranch).catch((err: unknown) => {
      if (err instanceof NotFoundError) return null;
      throw err;
    });
    if (found) def = { name: found.name, sha: found.commit.sha, protected: found.protected };
  }
  const shown = page === 1 ? def : null;
  const [tips, divergence] = await Promise.all([
    commitsBySha(ctx, repo, [...list.branches.map((b) => b.sha), ...(shown ? [shown.sha] : [])]),
    divergenceOf(ctx, repo, def?.sha ?? null, list.branches.filter((b) => b.name !== repo.defaultBranch).map((b) => b.sha)),
  ]);
  const row = (b: { name: string; sha: string; protected: boolean }): BranchRow => ({
    ...b, commit: tips.get(b.sha) ?? null, divergence: b.name === repo.defaultBranch ? null : divergence.get(b.sha) ?? null,
  });
  return {
    repo,
    defaultBranch: shown ? row(shown) : null,
    branches: list.branches.map((b) => row({ name: b.name, sha: b.sha, protected: b.protected })),
    total: list.total,
    page,
  };
}

export interface TagsView {
  repo: Repo;
  tags: { tag: TagRecord; commit: CommitRecordData | null }[];
  total: number;
  page: number;
}

/** One page of tags, newest name first, as GET /repos/{o}/{r}/tags pages them. */
export async function tagsOf(ctx: AppContext, actor: Actor, owner: string, name: string, page: number): Promise<TagsView> {
  const list = await listTags(ctx, actor, owner, name, { offset: (page - 1) * PER_PAGE, perPage: PER_PAGE });
  // The repository the tags were read from (the service checked the caller may read it).
  const repo = list.items[0]?.repo ?? (await repos.locate(ctx, actor, owner, name)).repo;
  const tips = await commitsBySha(ctx, repo, list.items.map((t) => t.commit));
  return { repo, tags: list.items.map((tag) => ({ tag, commit: tips.get(tag.commit) ?? null })), total: list.total, page };
}

export interface ReleaseEntry {
  detail: ReleaseDetail;
  /** The body as sanitized HTML ('' when it has none). */
  html: string;
  latest: boolean;
}

export interface ReleasesView {
  repo: Repo;
  releases: ReleaseEntry[];
  total: number;
  page: number;
}

async function entries(ctx: AppContext, records: Parameters<typeof releaseDetails>[1], latestId: number | null): Promise<ReleaseEntry[]> {
  const details = await releaseDetails(ctx, records);
  return Promise.all(details.map(async (detail) => ({
    detail,
    html: detail.release.body ? await renderHtml(ctx, detail.release.body, { mode: 'gfm', context: `${detail.repo.owner.login}/${detail.repo.name}` }) : '',
    latest: detail.release.id === latestId,
  })));
}

/** One page of releases as GET /repos/{o}/{r}/releases pages them (drafts only for those who may see them). */
export async function releasesOf(ctx: AppContext, actor: Actor, owner: string, name: string, page: number): Promise<ReleasesView> {
  const [list, latest] = await Promise.all([
    releases.listReleases(ctx, actor, owner, name, { offset: (page - 1) * PER_PAGE, perPage: PER_PAGE }),
    releases.findLatestRelease(ctx, actor, owner, name),
  ]);
  const repo = list.items[0]?.repo ?? latest?.repo ?? (await repos.locate(ctx, actor, owner, name)).repo;
  return { repo, releases: await entries(ctx, list.items, latest?.release.id ?? null), total: list.total, page };
}

/** The release of a tag (a draft too, for those who may see drafts: its html_url is the same address). */
export async function releaseAt(ctx: AppContext, actor: Actor, owner: string, name: string, tag: string): Promise<ReleaseEntry> {
  const [found, latest] = await Promise.all([
    releases.findReleaseByTag(ctx, actor, owner, name, tag, true),
    releases.findLatestRelease(ctx, actor, owner, name),
  ]);
  if (!found) throw new NotFoundError();
  return (await entries(ctx, [found], latest?.release.id ?? null))[0]!;
}

/** `base...head`; a single ref compares the default branch with it, as upstream's address does. */
export async function comparisonOf(ctx: AppContext, actor: Actor, owner: string, name: string, basehead: string): Promise<Comparison> {
  let spec = basehead;
  if (!spec.includes('...')) {
    if (!spec) throw new NotFoundError();
    spec = `${(await repos.locate(ctx, actor, owner, name)).repo.defaultBranch}...${spec}`;
  }
  return compareCommits(ctx, actor, owner, name, spec, { offset: 0, limit: MAX_UNPAGED_COMMITS }).catch((err: unknown) => {
    // An empty repository has nothing to compare (the API answers it as a 409).
    throw err instanceof ConflictError ? new NotFoundError() : err;
  });
}

/** What the compare form offers to pick from: the repository's branches and tags (the first of each, in the API's orders). */
export interface CompareChoices {
  repo: Repo;
  branches: string[];
  tags: string[];
}

/** Refs a datalist offers; any other ref, sha or `owner:branch` may still be typed. */
const MAX_CHOICES = 100;

export async function compareChoicesOf(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<CompareChoices> {
  const [list, tags] = await Promise.all([
    commits.listBranches(ctx, actor, owner, name, { offset: 0, limit: MAX_CHOICES }),
    listTags(ctx, actor, owner, name, { offset: 0, perPage: MAX_CHOICES }),
  ]);
  return { repo: list.repo, branches: list.branches.map((b) => b.name), tags: tags.items.map((t) => t.name) };
}

/** The two sides of a comparison's `base...head`, as written. */
export function sidesOf(c: Comparison): { base: string; head: string } {
  const at = c.basehead.indexOf('...');
  return { base: c.basehead.slice(0, at), head: c.basehead.slice(at + 3) };
}

export interface NewPullForm {
  title: string;
  body: string;
  draft: boolean;
  errors: string[];
}

/** What the form offers first: one commit's subject and body, or else the head branch's name (as upstream fills it in). */
export function newPullDefaults(c: Comparison): NewPullForm {
  const { head } = sidesOf(c);
  const only = c.commits.length === 1 ? c.commits[0]!.commit.parsed.message.trim() : null;
  if (only) {
    const [subject, ...rest] = only.split('\n');
    return { title: subject!, body: rest.join('\n').trim(), draft: false, errors: [] };
  }
  return { title: head.slice(head.indexOf(':') + 1), body: '', draft: false, errors: [] };
}

/**
 * Opens a pull request of the comparison's head into its base through the pulls service
 * (its rules decide: commits between, no open duplicate, a title). The base is a branch
 * of this repository: `owner:` naming the repository's own owner is dropped; any other
 * owner's branch is not a base here, and the service says so.
 */
export function openPull(ctx: AppContext, actor: Actor, c: Comparison, form: Omit<NewPullForm, 'errors'>): Promise<pulls.LocatedPull> {
  const { base, head } = sidesOf(c);
  const ownPrefix = `${c.repo.owner.login}:`;
  const baseRef = base.toLowerCase().startsWith(ownPrefix.toLowerCase()) ? base.slice(ownPrefix.length) : base;
  return pulls.createPull(ctx, actor, c.repo.owner.login, c.repo.name, { title: form.title, body: form.body || null, head, base: baseRef, draft: form.draft });
}
