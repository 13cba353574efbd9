// The git side of releases: what a tag or commitish names, creating the tag of a
// release when it is published (upstream creates it then, not for a draft), and the
// repository's tag list.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import { peel } from '../../git/objects.ts';
import { refNameProblem } from '../../git/ref-format.ts';
import * as git from '../../git/repository.ts';
import { GitError } from '../../git/run.ts';
import { listTags as gitTags } from '../../git/tags.ts';
import { changingRefs, isPlainRevision, type GitRepo } from '../git-data/git-data.repository.ts';
import * as repos from '../repos/repos.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { TagRecord } from './releases.model.ts';
import { forReading } from './releases.access.ts';

export const RESOURCE = 'Release';

export function tagRef(tag: string): string {
  return `refs/tags/${tag}`;
}

/** Upstream's 422 for a tag name git would refuse. */
export function requireTagName(tag: string): void {
  if (tag.trim() === '') {
    throw new ValidationError([{ resource: RESOURCE, field: 'tag_name', code: 'missing_field', message: 'tag_name is missing' }]);
  }
  const problem = refNameProblem(tagRef(tag));
  if (problem) {
    throw new ValidationError([{ resource: RESOURCE, field: 'tag_name', code: 'invalid', message: `tag_name ${problem}` }]);
  }
}

/** The commit the tag names, or null when there is no such tag. */
export async function tagCommit(dir: string, tag: string): Promise<string | null> {
  return peel(dir, tagRef(tag), 'commit');
}

/** The commit a branch name or sha names, or upstream's 422 on target_commitish. */
export async function resolveTarget(dir: string, target: string, field = 'target_commitish'): Promise<string> {
  const sha = isPlainRevision(target) ? await peel(dir, target, 'commit') : null;
  if (!sha) {
    throw new ValidationError([{ resource: RESOURCE, field, code: 'invalid', message: `${field} is invalid: no commit found for ${target}` }]);
  }
  return sha;
}

/**
 * Makes the tag (a lightweight ref) at `target` unless it exists, recorded as a push
 * (the create event, push hooks). A tag made meanwhile by someone else is kept.
 */
export async function ensureTag(ctx: AppContext, actor: Actor, r: GitRepo, tag: string, target: string): Promise<void> {
  if (await tagCommit(r.dir, tag)) return;
  const sha = await resolveTarget(r.dir, target);
  await changingRefs(ctx, actor, r, [tagRef(tag)], async () => {
    try {
      await git.updateRef(r.dir, tagRef(tag), sha, git.ZERO_SHA);
    } catch (err) {
      if (!(err instanceof GitError)) throw err;
    }
  });
}

/** Tags naming commits, newest name first (upstream lists tags in reverse order). */
async function tagsOf(ctx: AppContext, repo: Repo): Promise<TagRecord[]> {
  const all = await gitTags(repos.gitDir(ctx, repo));
  return all.flatMap((t) => (t.commit ? [{ repo, name: t.name, commit: t.commit }] : []))
    .sort((a, b) => b.name.localeCompare(a.name, 'en', { numeric: true }));
}

export async function listTags(ctx: AppContext, actor: Actor, owner: string, name: string, slice: Slice): Promise<Page<TagRecord>> {
  const { repo } = await forReading(ctx, actor, owner, name);
  const tags = await tagsOf(ctx, repo);
  return { items: tags.slice(slice.offset, slice.offset + slice.perPage), total: tags.length };
}

/** The commit a release's tag names now (null while a draft's tag is not made). */
export function commitOfTag(ctx: AppContext, repo: Repo, tag: string): Promise<string | null> {
  return tagCommit(repos.gitDir(ctx, repo), tag);
}
