// Review comments follow the diff, as upstream's do: when a pull request's head moves (a
// push, `synchronize`) or its base branch changes (`edited` with a base change), each line
// comment still placed is carried to the new diff. A line no change touched (its text
// unchanged between the head the comment was placed against and the new head) that the
// new diff still shows gets its new `position` and `line`, and `commit_id` the new head;
// any other becomes outdated: position, line and start_line null, commit_id the last head
// it was placed against. original_* never change, and an outdated comment stays outdated.
// File comments have no line and are never outdated.
//
// Runs in the transaction that records the event, like the synchronize itself (the
// pulls module has no queue of after-push work; auto-merge's is for merging): the comments
// and the head they are placed against commit together. One pass per pull request: the
// new diff is read once, and the diff from each earlier head once, whatever the number
// of comments; a pull request without placed line comments costs one query.
import type { AppContext } from '../../context.ts';
import type { DomainEvent } from '../../events/outbox.ts';
import { mergeBase } from '../../git/compare.ts';
import { diffFiles, type FileChange } from '../../git/history.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { branchTip } from './pulls.git.ts';
import type { PullRequestRecord, ReviewCommentRecord, Side } from './pulls.model.ts';
import * as store from './pulls.store.ts';
import { byLine, lineCarrier } from './review-comments.positions.ts';
import * as reviewStore from './reviews.store.ts';

interface PullEventPayload {
  pull_request?: { id?: number };
  changes?: { base?: { ref?: { from?: string }; sha?: { from?: string } } };
}

/** Changes of one file between two commits: how its lines move, null when it is gone. */
type LineCarrier = (line: number) => number | null;

function carrierOf(files: readonly FileChange[] | null, path: string): LineCarrier {
  // An earlier head git no longer has (pruned after a force push): nothing to carry from.
  if (files === null) return () => null;
  const file = files.find((f) => f.path === path);
  if (!file) {
    // Renamed away: the comment's path no longer names it. Otherwise untouched.
    return files.some((f) => f.status === 'renamed' && f.previousPath === path) ? () => null : (line) => line;
  }
  if (file.status === 'removed' || file.status === 'added') return () => null;
  return file.patch === null ? (line) => line : lineCarrier(file.patch);
}

/** The changes between two commits, read once per pair; null when git cannot read them. */
function diffReader(dir: string): (from: string, to: string) => Promise<FileChange[] | null> {
  const read = new Map<string, Promise<FileChange[] | null>>();
  return (from, to) => {
    const key = `${from}..${to}`;
    if (!read.has(key)) read.set(key, from === to ? Promise.resolve([]) : diffFiles(dir, from, to).catch(() => null));
    return read.get(key)!;
  };
}

/**
 * Carries the placed line comments of `pull` (its head and base as now recorded) to its
 * current diff. `oldBaseTip`: the base branch's tip the comments were placed against,
 * when it differs from the current one (a base change).
 */
export async function repositionComments(ctx: AppContext, repo: Repo, pull: PullRequestRecord, oldBaseTip: string | null = null): Promise<void> {
  const comments = (await reviewStore.placedLineComments(ctx.db, pull.id)).filter((c) => c.commitId !== pull.headSha || oldBaseTip !== null);
  if (!comments.length) return;
  const dir = repos.gitDir(ctx, repo);
  const baseTip = (await branchTip(dir, pull.baseRef)) ?? pull.baseSha;
  const from = await mergeBase(dir, baseTip, pull.headSha);
  const diff = diffReader(dir);
  const current = (from ? await diff(from, pull.headSha) : null) ?? [];
  const places = new Map<number, reviewStore.CommentPlace>();
  for (const c of comments) {
    const patch = current.find((f) => f.path === c.path)?.patch ?? null;
    // RIGHT lines are of the head's version, LEFT lines of the merge base's.
    const right = carrierOf(await diff(c.commitId, pull.headSha), c.path);
    const oldFrom = await mergeBase(dir, oldBaseTip ?? baseTip, c.commitId);
    const left = oldFrom && from ? carrierOf(await diff(oldFrom, from), c.path) : () => null;
    const carrier = (side: Side | null) => (side === 'LEFT' ? left : right);
    const carry = (line: number | null, side: Side | null): number | null => {
      if (line === null || patch === null) return null;
      const moved = carrier(side)(line);
      return moved !== null && byLine(patch, moved, side ?? 'RIGHT') ? moved : null;
    };
    // A range on one side keeps its lines together: each unchanged, none added between them.
    const intact = c.startLine === null || c.line === null || c.startSide !== c.side || rangeIntact(carrier(c.side), c.startLine, c.line);
    const place = placeOf(c, pull.headSha, patch, intact ? carry(c.line, c.side) : null, c.startLine === null ? null : carry(c.startLine, c.startSide));
    if (place.commitId !== c.commitId || place.position !== c.position || place.line !== c.line || place.startLine !== c.startLine) places.set(c.id, place);
  }
  await reviewStore.placeComments(ctx.db, places);
}

/** Whether lines `from`..`to` all carry over, still one after another. */
function rangeIntact(carry: LineCarrier, from: number, to: number): boolean {
  const start = carry(from);
  if (start === null) return false;
  for (let l = from + 1; l <= to; l++) if (carry(l) !== start + (l - from)) return false;
  return true;
}

/** The comment's place given where its line and start line went (null: gone or changed). */
function placeOf(c: ReviewCommentRecord, head: string, patch: string | null, line: number | null, startLine: number | null): reviewStore.CommentPlace {
  const outdated = { commitId: c.commitId, position: null, line: null, startLine: null };
  if (patch === null || line === null || c.line === null) return outdated;
  if (c.startLine !== null && startLine === null) return outdated;
  const at = byLine(patch, line, c.side ?? 'RIGHT');
  return at ? { commitId: head, position: at.position, line, startLine } : outdated;
}

/** Subscriber: a synchronize, or an edit that changed the base branch, repositions the pull request's comments. */
export async function onEvent(ctx: AppContext, e: DomainEvent): Promise<void> {
  if (e.event !== 'pull_request' || !e.repositoryId) return;
  const p = e.payload as PullEventPayload;
  const baseChange = e.action === 'edited' ? p.changes?.base : undefined;
  if (e.action !== 'synchronize' && !baseChange) return;
  const pull = p.pull_request?.id ? await store.findById(ctx.db, p.pull_request.id) : null;
  if (!pull || pull.mergedAt) return;
  const [repo] = await repos.reposByIds(ctx, [pull.repositoryId]);
  if (!repo) return;
  // The earlier base as it is now (the recorded sha is the one the pull request was opened with).
  const oldRef = baseChange?.ref?.from;
  const oldBaseTip = baseChange ? (oldRef ? await branchTip(repos.gitDir(ctx, repo), oldRef) : null) ?? baseChange.sha?.from ?? null : null;
  await repositionComments(ctx, repo, pull, oldBaseTip);
}
