// Rules shared by reviews and review comments: who may comment (interaction limits,
// locked conversations), which commits a comment may point at, and where in the file's
// diff a comment sits.
import type { AppContext } from '../../context.ts';
import { requireUser, type Actor } from '../../domain/actor.ts';
import { ForbiddenError, ValidationError, type FieldError } from '../../domain/errors.ts';
import { mergeBase } from '../../git/compare.ts';
import { diffFiles } from '../../git/history.ts';
import { peel } from '../../git/objects.ts';
import * as git from '../../git/repository.ts';
import * as issues from '../issues/issues.service.ts';
import * as repos from '../repos/repos.service.ts';
import { branchTip } from './pulls.git.ts';
import type { Side } from './pulls.model.ts';
import type { LocatedPull } from './pulls.service.ts';
import { byLine, byPosition } from './review-comments.positions.ts';

/** Interaction limits and locks, as for issue comments. */
export async function requireCommentable(ctx: AppContext, actor: Actor, l: LocatedPull): Promise<void> {
  const user = requireUser(actor);
  await issues.requireInteraction(ctx, user.id, l.repo, 'comment');
  if (!(await issues.canComment(ctx, actor, l.repo, l.issue))) throw new ForbiddenError('Unable to create comment because issue is locked.');
}

/** A comment or review may point at the head or any commit of the pull request's history. */
export async function requireCommitOfPull(ctx: AppContext, l: LocatedPull, commitId: string, resource: string): Promise<void> {
  const dir = repos.gitDir(ctx, l.repo);
  const sha = /^[0-9a-f]{40}$/.test(commitId) ? await peel(dir, commitId, 'commit') : null;
  if (!sha || !(await git.isAncestor(dir, sha, l.pull.headSha))) {
    throw new ValidationError([{ resource, field: 'commit_id', code: 'invalid', message: 'commit_id is not part of the pull request' }], 'commit_id is not part of the pull request');
  }
}

export interface PlacementInput {
  path?: string;
  position?: number;
  line?: number;
  side?: Side;
  startLine?: number;
  startSide?: Side;
  subjectType?: 'line' | 'file';
}

export interface PlacedComment {
  path: string;
  diffHunk: string;
  position: number | null;
  line: number | null;
  side: Side | null;
  startLine: number | null;
  startSide: Side | null;
  subjectType: 'line' | 'file';
}

const RESOURCE = 'PullRequestReviewComment';

/**
 * Where the comment sits in the diff of `commitId` against the base; problems are added
 * to `errors` (prefixed for review comments given in a list) and null returned.
 */
export async function commentPlacement(
  ctx: AppContext, l: LocatedPull, commitId: string, input: PlacementInput, errors: FieldError[], prefix = '',
): Promise<PlacedComment | null> {
  if (!input.path) {
    errors.push({ resource: RESOURCE, field: `${prefix}path`, code: 'missing_field' });
    return null;
  }
  const dir = repos.gitDir(ctx, l.repo);
  const base = (await branchTip(dir, l.pull.baseRef)) ?? l.pull.baseSha;
  const from = (await mergeBase(dir, base, commitId)) ?? l.pull.mergeBaseSha;
  const file = from ? (await diffFiles(dir, from, commitId)).find((f) => f.path === input.path) : undefined;
  if (!file) {
    errors.push({ resource: RESOURCE, field: `${prefix}path`, code: 'invalid', message: 'path could not be resolved' });
    return null;
  }
  if (input.subjectType === 'file') {
    return { path: file.path, diffHunk: '', position: null, line: null, side: null, startLine: null, startSide: null, subjectType: 'file' };
  }
  if (input.position === undefined && input.line === undefined) {
    errors.push({ resource: RESOURCE, field: `${prefix}line`, code: 'missing_field' });
    return null;
  }
  const patch = file.patch ?? '';
  const at = input.line !== undefined ? byLine(patch, input.line, input.side ?? 'RIGHT') : byPosition(patch, input.position!);
  if (!at) {
    const field = input.line !== undefined ? 'line' : 'position';
    errors.push({ resource: RESOURCE, field: `${prefix}${field}`, code: 'invalid', message: `${field} could not be resolved` });
    return null;
  }
  let startLine: number | null = null;
  let startSide: Side | null = null;
  if (input.startLine !== undefined) {
    startSide = input.startSide ?? at.side;
    if (input.startLine >= at.line || !byLine(patch, input.startLine, startSide)) {
      errors.push({ resource: RESOURCE, field: `${prefix}start_line`, code: 'invalid', message: 'start_line must precede line and be part of the diff' });
      return null;
    }
    startLine = input.startLine;
  }
  return { path: file.path, diffHunk: at.diffHunk, position: at.position, line: at.line, side: at.side, startLine, startSide, subjectType: 'line' };
}
