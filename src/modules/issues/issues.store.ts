// SQL for issues, their number sequence, assignees and mentions. Only the issues
// module calls this; other modules go through issues.service.
import { sql, type ExpressionBuilder, type Selectable, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { comparisons, type Bounds } from '../../domain/bounds.ts';
import { precompile } from '../../db/precompiled.ts';
import type { Database, IssuesTable } from '../../db/schema.ts';
import type { IssueRecord, IssueState } from './issues.model.ts';

type Row = Selectable<IssuesTable>;

function toRecord(r: Row): IssueRecord {
  return {
    id: r.id,
    repositoryId: r.repository_id,
    number: r.number,
    isPullRequest: Number(r.is_pull_request) === 1,
    title: r.title,
    body: r.body,
    userId: r.user_id,
    state: r.state,
    stateReason: r.state_reason,
    locked: Number(r.locked) === 1,
    activeLockReason: r.active_lock_reason,
    milestoneId: r.milestone_id,
    comments: Number(r.comments),
    closedAt: r.closed_at,
    closedById: r.closed_by_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    performedViaAppId: r.performed_via_app_id,
  };
}

// ---------------------------------------------------------------- numbers

/**
 * The next issue number of the repository, in one statement: the counter row is
 * created or bumped atomically, so concurrent creators never share or skip a number.
 */
// Creating an issue runs these on every request: compiled once (see db/precompiled.ts).
// A number is allocated for an issue created open: the open count goes up with it.
const bumpIssueCounter = precompile(1, (db: Executor, repositoryId: number) => db.insertInto('issue_counters')
  .values({ repository_id: repositoryId, last_issue_number: 1, last_milestone_number: 0, open_issues: 1 })
  .onConflict((oc) => oc.column('repository_id').doUpdateSet({
    last_issue_number: sql<number>`issue_counters.last_issue_number + 1`,
    open_issues: sql<number>`issue_counters.open_issues + 1`,
  }))
  .returning('last_issue_number'));

/** The number of a new issue, which the caller inserts open in the same transaction. */
export async function allocateNumber(db: Executor, repositoryId: number): Promise<number> {
  const [row] = await bumpIssueCounter(db, repositoryId);
  return Number(row!.last_issue_number);
}

/** The next milestone number of the repository (same scheme as issue numbers). */
export async function allocateMilestoneNumber(db: Executor, repositoryId: number): Promise<number> {
  const row = await db.insertInto('issue_counters')
    .values({ repository_id: repositoryId, last_issue_number: 0, last_milestone_number: 1 })
    .onConflict((oc) => oc.column('repository_id').doUpdateSet({
      last_milestone_number: sql<number>`issue_counters.last_milestone_number + 1`,
    }))
    .returning('last_milestone_number')
    .executeTakeFirstOrThrow();
  return Number(row.last_milestone_number);
}

// ---------------------------------------------------------------- issues

/** A new issue: the record's fields a creator chooses (the rest start empty). */
export type NewIssue = Pick<IssueRecord, 'repositoryId' | 'number' | 'isPullRequest' | 'title' | 'body' | 'userId' | 'milestoneId' | 'performedViaAppId'> & { now: string };

const insertIssue = precompile(9, (
  db: Executor, repositoryId: number, number: number, isPullRequest: number, title: string, body: string | null,
  userId: number, milestoneId: number | null, now: string, performedViaAppId: number | null,
) => db.insertInto('issues').values({
  repository_id: repositoryId,
  number,
  is_pull_request: isPullRequest,
  title,
  body,
  user_id: userId,
  state: 'open',
  state_reason: null,
  locked: 0,
  active_lock_reason: null,
  milestone_id: milestoneId,
  comments: 0,
  closed_at: null,
  closed_by_id: null,
  created_at: now,
  updated_at: now,
  performed_via_app_id: performedViaAppId,
}).returningAll());

export async function insert(db: Executor, v: NewIssue): Promise<IssueRecord> {
  const [row] = await insertIssue(db, v.repositoryId, v.number, v.isPullRequest ? 1 : 0, v.title, v.body, v.userId, v.milestoneId, v.now, v.performedViaAppId);
  return toRecord(row!);
}

export async function findById(db: Executor, id: number): Promise<IssueRecord | null> {
  const row = await db.selectFrom('issues').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : null;
}

export async function findByIds(db: Executor, ids: readonly number[]): Promise<IssueRecord[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('issues').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  return rows.map(toRecord);
}

const byNumber = precompile(2, (db: Executor, repositoryId: number, number: number) => db.selectFrom('issues').selectAll()
  .where('repository_id', '=', repositoryId).where('number', '=', number));

export async function findByNumber(db: Executor, repositoryId: number, number: number): Promise<IssueRecord | null> {
  const [row] = await byNumber(db, repositoryId, number);
  return row ? toRecord(row) : null;
}

export async function findByNumbers(db: Executor, repositoryId: number, numbers: readonly number[]): Promise<IssueRecord[]> {
  if (!numbers.length) return [];
  const rows = await db.selectFrom('issues').selectAll()
    .where('repository_id', '=', repositoryId).where('number', 'in', [...new Set(numbers)]).execute();
  return rows.map(toRecord);
}

/** The record's fields an update may change. */
export type IssueChanges = Partial<Pick<IssueRecord,
  'title' | 'body' | 'state' | 'stateReason' | 'locked' | 'activeLockReason' | 'milestoneId' | 'closedAt' | 'closedById'>>;

export async function update(db: Executor, id: number, c: IssueChanges, now: string): Promise<IssueRecord> {
  if (c.state !== undefined) await changeState(db, id, c.state);
  const set: Updateable<IssuesTable> = { updated_at: now };
  if (c.title !== undefined) set.title = c.title;
  if (c.body !== undefined) set.body = c.body;
  if (c.state !== undefined) set.state = c.state;
  if (c.stateReason !== undefined) set.state_reason = c.stateReason;
  if (c.locked !== undefined) set.locked = c.locked ? 1 : 0;
  if (c.activeLockReason !== undefined) set.active_lock_reason = c.activeLockReason;
  if (c.milestoneId !== undefined) set.milestone_id = c.milestoneId;
  if (c.closedAt !== undefined) set.closed_at = c.closedAt;
  if (c.closedById !== undefined) set.closed_by_id = c.closedById;
  const row = await db.updateTable('issues').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return toRecord(row);
}

/**
 * Sets the state and moves the repository's open count with it, only when the state
 * really changes: of two concurrent closes, the second finds the row closed (it waits
 * for the first's row lock on PostgreSQL, for its write lock on SQLite) and counts nothing.
 */
async function changeState(db: Executor, id: number, state: IssueState): Promise<void> {
  const flipped = await db.updateTable('issues').set({ state }).where('id', '=', id).where('state', '<>', state)
    .returning('repository_id').executeTakeFirst();
  if (!flipped) return;
  await db.updateTable('issue_counters')
    .set({ open_issues: sql<number>`open_issues + ${state === 'open' ? 1 : -1}` })
    .where('repository_id', '=', flipped.repository_id).execute();
}

/** Turns an issue into the issue row of a pull request (pulls module: POST …/pulls with `issue`). */
export async function markPullRequest(db: Executor, id: number, now: string): Promise<IssueRecord> {
  const row = await db.updateTable('issues').set({ is_pull_request: 1, updated_at: now }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  return toRecord(row);
}

/** Marks the issue as touched (a comment, a label …) without other change. */
export async function touch(db: Executor, id: number, now: string): Promise<void> {
  await db.updateTable('issues').set({ updated_at: now }).where('id', '=', id).execute();
}

/** Adds `delta` to the comment counter in the same statement (exact under concurrency). */
export async function bumpComments(db: Executor, id: number, delta: number, now: string): Promise<void> {
  await db.updateTable('issues')
    .set({ comments: sql<number>`comments + ${delta}`, updated_at: now })
    .where('id', '=', id).execute();
}

// ---------------------------------------------------------------- lists

export interface ListFilter {
  repositoryIds: readonly number[];
  state: IssueState | 'all';
  /** true: only pull requests; false: only issues; undefined: both. */
  pullRequests?: boolean;
  /** Lower-cased label names, all of which an issue must carry. */
  labels?: readonly string[];
  /** Lower-cased label names, any one of which an issue must carry (GraphQL's `labels` argument). */
  anyLabels?: readonly string[];
  /** Words each of which the title or the body holds, compared without case (issue search). */
  words?: readonly string[];
  /** Issue search's keywords: each clause (any of its words) in one of `fields`; `excluded` in none. */
  text?: { clauses: readonly (readonly string[])[]; excluded: readonly string[]; fields: readonly ('title' | 'body' | 'comments')[] };
  /** Issues without any label (no:label). */
  noLabel?: boolean;
  /** Lower-cased label names none of which an issue may carry (-label:). */
  withoutLabels?: readonly string[];
  /** A milestone's title, compared without case (search's milestone:). */
  milestoneTitle?: string;
  /** Someone who commented (search's commenter:). */
  commenterId?: number;
  created?: Bounds<string>;
  updated?: Bounds<string>;
  closed?: Bounds<string>;
  commentCount?: Bounds<number>;
  /** Repositories (issues disabled) where only pull requests count. */
  pullRequestsOnlyIn?: readonly number[];
  /** A milestone id, any milestone ('*') or none. */
  milestone?: number | '*' | 'none';
  /** An assignee's id, anyone assigned ('*') or no one. */
  assignee?: number | '*' | 'none';
  creatorId?: number;
  mentionedId?: number;
  /** Issues the user takes part in: author, assignee, mentioned or commenter. */
  participantId?: number;
  /** updated_at at or after this. */
  since?: string;
  /** created_at before this. */
  createdBefore?: string;
  /** Only these issues (a set another filter chose, e.g. pull requests of a branch). */
  ids?: readonly number[];
  sort: 'created' | 'updated' | 'comments';
  direction: 'asc' | 'desc';
  limit: number;
  offset: number;
}

function filtered(db: Executor, f: ListFilter) {
  let q = db.selectFrom('issues');
  // No repository ids: every repository (matchingRepositoryIds; list answers nothing then).
  if (f.repositoryIds.length === 1) q = q.where('issues.repository_id', '=', f.repositoryIds[0]!);
  else if (f.repositoryIds.length) q = q.where('issues.repository_id', 'in', f.repositoryIds);
  if (f.state !== 'all') q = q.where('issues.state', '=', f.state);
  if (f.pullRequests !== undefined) q = q.where('issues.is_pull_request', '=', f.pullRequests ? 1 : 0);
  if (f.since) q = q.where('issues.updated_at', '>=', f.since);
  if (f.createdBefore) q = q.where('issues.created_at', '<', f.createdBefore);
  if (f.ids) q = f.ids.length ? q.where('issues.id', 'in', [...f.ids]) : q.where(sql<boolean>`1 = 0`);
  if (f.creatorId !== undefined) q = q.where('issues.user_id', '=', f.creatorId);
  if (f.milestone === '*') q = q.where('issues.milestone_id', 'is not', null);
  else if (f.milestone === 'none') q = q.where('issues.milestone_id', 'is', null);
  else if (f.milestone !== undefined) q = q.where('issues.milestone_id', '=', f.milestone);
  const assignee = f.assignee;
  if (assignee === '*' || assignee === 'none') {
    q = q.where((eb) => {
      const any = eb.exists(eb.selectFrom('issue_assignees').select('issue_assignees.issue_id').whereRef('issue_assignees.issue_id', '=', 'issues.id'));
      return assignee === '*' ? any : eb.not(any);
    });
  } else if (assignee !== undefined) {
    q = q.where((eb) => eb.exists(eb.selectFrom('issue_assignees').select('issue_assignees.issue_id')
      .whereRef('issue_assignees.issue_id', '=', 'issues.id').where('issue_assignees.user_id', '=', assignee)));
  }
  if (f.mentionedId !== undefined) {
    const id = f.mentionedId;
    q = q.where((eb) => eb.exists(eb.selectFrom('issue_mentions').select('issue_mentions.issue_id')
      .whereRef('issue_mentions.issue_id', '=', 'issues.id').where('issue_mentions.user_id', '=', id)));
  }
  if (f.participantId !== undefined) {
    const id = f.participantId;
    q = q.where((eb) => eb.or([
      eb('issues.user_id', '=', id),
      eb.exists(eb.selectFrom('issue_assignees').select('issue_assignees.issue_id')
        .whereRef('issue_assignees.issue_id', '=', 'issues.id').where('issue_assignees.user_id', '=', id)),
      eb.exists(eb.selectFrom('issue_mentions').select('issue_mentions.issue_id')
        .whereRef('issue_mentions.issue_id', '=', 'issues.id').where('issue_mentions.user_id', '=', id)),
      eb.exists(eb.selectFrom('issue_comments').select('issue_comments.issue_id')
        .whereRef('issue_comments.issue_id', '=', 'issues.id').where('issue_comments.user_id', '=', id)),
    ]));
  }
  for (const name of f.labels ?? []) {
    q = q.where((eb) => eb.exists(eb.selectFrom('issue_labels')
      .innerJoin('labels', 'labels.id', 'issue_labels.label_id')
      .select('issue_labels.issue_id')
      .whereRef('issue_labels.issue_id', '=', 'issues.id')
      .where('labels.name_lower', '=', name)));
  }
  if (f.anyLabels?.length) {
    const names = f.anyLabels;
    q = q.where((eb) => eb.exists(eb.selectFrom('issue_labels')
      .innerJoin('labels', 'labels.id', 'issue_labels.label_id')
      .select('issue_labels.issue_id')
      .whereRef('issue_labels.issue_id', '=', 'issues.id')
      .where('labels.name_lower', 'in', [...names])));
  }
  if (f.pullRequestsOnlyIn?.length) {
    const ids = f.pullRequestsOnlyIn;
    q = q.where((eb) => eb.or([eb('issues.repository_id', 'not in', [...ids]), eb('issues.is_pull_request', '=', 1)]));
  }
  for (const [column, b] of [['issues.created_at', f.created], ['issues.updated_at', f.updated], ['issues.closed_at', f.closed]] as const) {
    for (const [op, v] of b ? comparisons(b) : []) q = q.where(column, op, v);
  }
  for (const [op, v] of f.commentCount ? comparisons(f.commentCount) : []) q = q.where('issues.comments', op, v);
  if (f.commenterId !== undefined) {
    const id = f.commenterId;
    q = q.where((eb) => eb.exists(eb.selectFrom('issue_comments').select('issue_comments.issue_id')
      .whereRef('issue_comments.issue_id', '=', 'issues.id').where('issue_comments.user_id', '=', id)));
  }
  if (f.noLabel) {
    q = q.where((eb) => eb.not(eb.exists(eb.selectFrom('issue_labels').select('issue_labels.issue_id')
      .whereRef('issue_labels.issue_id', '=', 'issues.id'))));
  }
  if (f.withoutLabels?.length) {
    const names = f.withoutLabels;
    q = q.where((eb) => eb.not(eb.exists(eb.selectFrom('issue_labels')
      .innerJoin('labels', 'labels.id', 'issue_labels.label_id')
      .select('issue_labels.issue_id')
      .whereRef('issue_labels.issue_id', '=', 'issues.id')
      .where('labels.name_lower', 'in', [...names]))));
  }
  if (f.milestoneTitle !== undefined) {
    const title = f.milestoneTitle.toLowerCase();
    q = q.where((eb) => eb.exists(eb.selectFrom('milestones').select('milestones.id')
      .whereRef('milestones.id', '=', 'issues.milestone_id')
      .where(sql<string>`lower(milestones.title)`, '=', title)));
  }
  if (f.text) {
    const { fields } = f.text;
    const holds = (eb: ExpressionBuilder<Database, 'issues'>, word: string) => {
      const pattern = sql<string>`${`%${word.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`} escape '!'`;
      return eb.or(fields.map((field) => (field === 'comments'
        ? eb.exists(eb.selectFrom('issue_comments').select('issue_comments.issue_id')
          .whereRef('issue_comments.issue_id', '=', 'issues.id')
          .where(sql<boolean>`lower(coalesce(issue_comments.body, '')) like ${pattern}`))
        // coalesce: a missing body holds no word (and NOT of it is true, not NULL).
        : sql<boolean>`lower(coalesce(${sql.ref(field === 'title' ? 'issues.title' : 'issues.body')}, '')) like ${pattern}`)));
    };
    for (const clause of f.text.clauses) q = q.where((eb) => eb.or(clause.map((w) => holds(eb, w))));
    for (const word of f.text.excluded) q = q.where((eb) => eb.not(holds(eb, word)));
  }
  for (const word of f.words ?? []) {
    // '!' escapes LIKE's wildcards the same way in both dialects.
    const pattern = `%${word.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
    q = q.where((eb) => eb.or([
      eb(eb.fn('lower', ['issues.title']), 'like', sql<string>`${pattern} escape '!'`),
      eb(eb.fn('lower', ['issues.body']), 'like', sql<string>`${pattern} escape '!'`),
    ]));
  }
  return q;
}

/** The repositories holding issues that match the filter, whatever its repository ids (issue search). */
export async function matchingRepositoryIds(db: Executor, f: Omit<ListFilter, 'repositoryIds' | 'sort' | 'direction' | 'limit' | 'offset'>): Promise<number[]> {
  const rows = await filtered(db, { ...f, repositoryIds: [], sort: 'created', direction: 'asc', limit: 0, offset: 0 })
    .select('issues.repository_id').distinct().execute();
  return rows.map((r) => r.repository_id);
}

/** A page of issues matching the filter, and how many match in all. */
export async function list(db: Executor, f: ListFilter): Promise<{ rows: IssueRecord[]; total: number }> {
  if (!f.repositoryIds.length) return { rows: [], total: 0 };
  const q = filtered(db, f);
  const totalRow = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  // Ids grow with creation time, so "created" orders by id alone (and uses the index).
  // The page's ids are chosen first: skipping `offset` rows then walks the index only,
  // not the rows, so a far page costs about what the first does.
  let ids = q.select('issues.id');
  if (f.sort === 'updated') ids = ids.orderBy('issues.updated_at', f.direction);
  else if (f.sort === 'comments') ids = ids.orderBy('issues.comments', f.direction);
  ids = ids.orderBy('issues.id', f.direction).limit(f.limit).offset(f.offset);
  let page = db.selectFrom('issues').selectAll().where('issues.id', 'in', ids);
  if (f.sort === 'updated') page = page.orderBy('issues.updated_at', f.direction);
  else if (f.sort === 'comments') page = page.orderBy('issues.comments', f.direction);
  const rows = await page.orderBy('issues.id', f.direction).execute();
  return { rows: rows.map(toRecord), total: Number(totalRow.n) };
}

/** The repositories (among all) holding issues where the user is assignee, author, mentioned or participant. */
export async function repositoriesWithIssuesFor(
  db: Executor, kind: 'assigned' | 'created' | 'mentioned' | 'subscribed', userId: number,
): Promise<number[]> {
  let q = db.selectFrom('issues').select('issues.repository_id').distinct();
  if (kind === 'created') q = q.where('issues.user_id', '=', userId);
  else if (kind === 'assigned') {
    q = q.innerJoin('issue_assignees', 'issue_assignees.issue_id', 'issues.id').where('issue_assignees.user_id', '=', userId);
  } else if (kind === 'mentioned') {
    q = q.innerJoin('issue_mentions', 'issue_mentions.issue_id', 'issues.id').where('issue_mentions.user_id', '=', userId);
  } else {
    q = q.where((eb) => eb.or([
      eb('issues.user_id', '=', userId),
      eb.exists(eb.selectFrom('issue_assignees').select('issue_assignees.issue_id')
        .whereRef('issue_assignees.issue_id', '=', 'issues.id').where('issue_assignees.user_id', '=', userId)),
      eb.exists(eb.selectFrom('issue_mentions').select('issue_mentions.issue_id')
        .whereRef('issue_mentions.issue_id', '=', 'issues.id').where('issue_mentions.user_id', '=', userId)),
      eb.exists(eb.selectFrom('issue_comments').select('issue_comments.issue_id')
        .whereRef('issue_comments.issue_id', '=', 'issues.id').where('issue_comments.user_id', '=', userId)),
    ]));
  }
  const rows = await q.execute();
  return rows.map((r) => r.repository_id);
}

/** Open issues plus open pull requests per repository (the repository's open_issues_count). */
export async function openCounts(db: Executor, repositoryIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!repositoryIds.length) return out;
  const rows = await db.selectFrom('issue_counters').select(['repository_id', 'open_issues'])
    .where('repository_id', 'in', [...new Set(repositoryIds)]).execute();
  for (const r of rows) out.set(r.repository_id, Number(r.open_issues));
  return out;
}

/** Whether the user authored an issue or pull request in the repository (interaction limits' "contributor"). */
export async function hasAuthored(db: Executor, repositoryId: number, userId: number): Promise<boolean> {
  const row = await db.selectFrom('issues').select('id')
    .where('repository_id', '=', repositoryId).where('user_id', '=', userId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Users among `userIds` who authored a pull request in the repository, with the ids of those pull requests. */
export async function pullRequestsBy(db: Executor, repositoryId: number, userIds: readonly number[]): Promise<{ userId: number; issueId: number }[]> {
  if (!userIds.length) return [];
  const rows = await db.selectFrom('issues').select(['user_id', 'id'])
    .where('repository_id', '=', repositoryId).where('is_pull_request', '=', 1)
    .where('user_id', 'in', [...new Set(userIds)]).execute();
  return rows.map((r) => ({ userId: r.user_id, issueId: r.id }));
}

// ---------------------------------------------------------------- assignees

export async function assigneesOf(db: Executor, issueIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (!issueIds.length) return out;
  const ids = [...new Set(issueIds)];
  const rows = await db.selectFrom('issue_assignees').select(['issue_id', 'user_id'])
    .where(ids.length === 1 ? (eb) => eb('issue_id', '=', ids[0]!) : (eb) => eb('issue_id', 'in', ids))
    .orderBy('issue_id').orderBy('created_at').orderBy('user_id').execute();
  for (const r of rows) {
    const list = out.get(r.issue_id);
    if (list) list.push(r.user_id);
    else out.set(r.issue_id, [r.user_id]);
  }
  return out;
}

export async function addAssignees(db: Executor, issueId: number, userIds: readonly number[], now: string): Promise<void> {
  if (!userIds.length) return;
  await db.insertInto('issue_assignees')
    .values(userIds.map((userId) => ({ issue_id: issueId, user_id: userId, created_at: now })))
    .onConflict((oc) => oc.columns(['issue_id', 'user_id']).doNothing())
    .execute();
}

export async function removeAssignees(db: Executor, issueId: number, userIds: readonly number[]): Promise<void> {
  if (!userIds.length) return;
  await db.deleteFrom('issue_assignees').where('issue_id', '=', issueId).where('user_id', 'in', [...userIds]).execute();
}

// ---------------------------------------------------------------- mentions

export async function addMentions(db: Executor, issueId: number, userIds: readonly number[], now: string): Promise<void> {
  if (!userIds.length) return;
  await db.insertInto('issue_mentions')
    .values([...new Set(userIds)].map((userId) => ({ issue_id: issueId, user_id: userId, created_at: now })))
    .onConflict((oc) => oc.columns(['issue_id', 'user_id']).doNothing())
    .execute();
}
