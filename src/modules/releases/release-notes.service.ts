// Generated release notes, as upstream writes them by default: the pull requests merged
// between the previous release's tag and this one ("What's Changed"), the authors whose
// first merged pull request is among them ("New Contributors"), and a link to the full
// comparison. The pulls come from the pulls module's list (read only).
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ValidationError } from '../../domain/errors.ts';
import * as git from '../../git/repository.ts';
import type { GitRepo } from '../git-data/git-data.repository.ts';
import { listPullRecords, type PullPair } from '../pulls/pulls.service.ts';
import { pullUrls } from '../pulls/pulls.views.ts';
import * as users from '../users/users.service.ts';
import { forWriting } from './releases.access.ts';
import { requireTagName, resolveTarget, RESOURCE, tagCommit } from './release-tags.ts';
import * as store from './releases.store.ts';

export interface NotesInput {
  tag_name: string;
  target_commitish?: string;
  previous_tag_name?: string;
}

export interface ReleaseNotes {
  name: string;
  body: string;
}

/** Commits looked at, newest first: upstream too bounds the range it summarises. */
const MAX_COMMITS = 10_000;
const MAX_PULLS = 10_000;

/**
 * The previous release's tag: the newest published release of another tag whose commit
 * the new one contains.
 */
async function previousTag(ctx: AppContext, r: GitRepo, tag: string, head: string): Promise<{ name: string; sha: string } | null> {
  const releases = await store.listReleases(ctx.db, r.repo.id, { withDrafts: false }, { perPage: 100, offset: 0 });
  for (const rel of releases) {
    if (rel.tagName === tag) continue;
    const sha = await tagCommit(r.dir, rel.tagName);
    if (sha && sha !== head && await git.isAncestor(r.dir, sha, head)) return { name: rel.tagName, sha };
  }
  return null;
}

function compareUrl(ctx: AppContext, r: GitRepo, from: string | null, to: string): string {
  const { login } = r.repo.owner;
  return from ? ctx.urls.html(login, r.repo.name, 'compare', `${from}...${to}`) : ctx.urls.html(login, r.repo.name, 'commits', to);
}

/** A merged pull request belongs to the range when its merge (or, fast-forwarded, its head) commit does. */
function inRange(p: PullPair, commits: ReadonlySet<string>): boolean {
  return (p.pull.mergeCommitSha !== null && commits.has(p.pull.mergeCommitSha)) || commits.has(p.pull.headSha);
}

export async function notesFor(ctx: AppContext, r: GitRepo, input: NotesInput): Promise<ReleaseNotes> {
  const head = (await tagCommit(r.dir, input.tag_name)) ?? await resolveTarget(r.dir, input.target_commitish ?? r.repo.defaultBranch);
  let previous: { name: string; sha: string } | null;
  if (input.previous_tag_name !== undefined) {
    const sha = await tagCommit(r.dir, input.previous_tag_name);
    if (!sha) throw new ValidationError([{ resource: RESOURCE, field: 'previous_tag_name', code: 'invalid', message: `previous_tag_name ${input.previous_tag_name} does not exist` }]);
    previous = { name: input.previous_tag_name, sha };
  } else {
    previous = await previousTag(ctx, r, input.tag_name, head);
  }
  const commits = new Set((await git.commitsBetween(r.dir, head, previous ? [previous.sha] : [], MAX_COMMITS)).map((c) => c.sha));
  const merged = (await listPullRecords(ctx, [r.repo], { states: ['merged'], sort: 'created', direction: 'asc', offset: 0, limit: MAX_PULLS })).items
    .sort((a, b) => (a.pull.mergedAt ?? '').localeCompare(b.pull.mergedAt ?? ''));
  const included = merged.filter((p) => inRange(p, commits));
  const authors = await users.accountsByIds(ctx, [...new Set(included.map((p) => p.issue.userId))]);
  const { login: owner } = r.repo.owner;
  const urlOf = (p: PullPair) => pullUrls(ctx.urls, owner, r.repo.name, p.pull.number).html;
  const who = (p: PullPair) => authors.get(p.issue.userId)?.login ?? 'ghost';
  const sections: string[] = [];
  if (included.length) {
    sections.push(`## What's Changed\n${included.map((p) => `* ${p.issue.title} by @${who(p)} in ${urlOf(p)}`).join('\n')}`);
    // A first contribution: the author's earliest merged pull request of the repository is in this release.
    const firstOf = new Map<number, PullPair>();
    for (const p of merged) if (!firstOf.has(p.issue.userId)) firstOf.set(p.issue.userId, p);
    const newcomers = included.filter((p) => firstOf.get(p.issue.userId) === p);
    if (newcomers.length) {
      sections.push(`## New Contributors\n${newcomers.map((p) => `* @${who(p)} made their first contribution in ${urlOf(p)}`).join('\n')}`);
    }
  }
  sections.push(`**Full Changelog**: ${compareUrl(ctx, r, previous?.name ?? null, input.tag_name)}`);
  return { name: input.tag_name, body: sections.join('\n\n') };
}

/** POST …/releases/generate-notes: push access, as upstream. */
export async function generateNotes(ctx: AppContext, actor: Actor, owner: string, name: string, input: NotesInput): Promise<ReleaseNotes> {
  const r = await forWriting(ctx, actor, owner, name);
  requireTagName(input.tag_name);
  return notesFor(ctx, r, input);
}
