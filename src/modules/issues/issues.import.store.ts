// SQL for putting in what a migration archive holds (issues.import.ts): rows with the
// archive's numbers and timestamps, and the counters raised past them. Only the issues
// module calls this.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { IssueRecord, MilestoneRecord } from './issues.model.ts';

/** Raises the repository's counters to at least these numbers, so that new issues and milestones follow on. */
export async function raiseCounters(db: Executor, repositoryId: number, issue: number, milestone: number, open: number): Promise<void> {
  await db.insertInto('issue_counters')
    .values({ repository_id: repositoryId, last_issue_number: issue, last_milestone_number: milestone, open_issues: open })
    .onConflict((oc) => oc.column('repository_id').doUpdateSet({
      last_issue_number: sql<number>`CASE WHEN issue_counters.last_issue_number < ${issue} THEN ${issue} ELSE issue_counters.last_issue_number END`,
      last_milestone_number: sql<number>`CASE WHEN issue_counters.last_milestone_number < ${milestone} THEN ${milestone} ELSE issue_counters.last_milestone_number END`,
      open_issues: sql<number>`issue_counters.open_issues + ${open}`,
    }))
    .execute();
}

export async function insertMilestone(db: Executor, m: Omit<MilestoneRecord, 'id'>): Promise<number> {
  const row = await db.insertInto('milestones').values({
    repository_id: m.repositoryId, number: m.number, title: m.title, description: m.description, state: m.state,
    creator_id: m.creatorId, due_on: m.dueOn, closed_at: m.closedAt, created_at: m.createdAt, updated_at: m.updatedAt,
  }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export type ImportedIssueRow = Omit<IssueRecord, 'id' | 'comments' | 'performedViaAppId'>;

export async function insertIssue(db: Executor, i: ImportedIssueRow): Promise<number> {
  const row = await db.insertInto('issues').values({
    repository_id: i.repositoryId, number: i.number, is_pull_request: i.isPullRequest ? 1 : 0, title: i.title, body: i.body,
    user_id: i.userId, state: i.state, state_reason: i.stateReason, locked: i.locked ? 1 : 0, active_lock_reason: i.activeLockReason,
    milestone_id: i.milestoneId, comments: 0, closed_at: i.closedAt, closed_by_id: i.closedById, created_at: i.createdAt, updated_at: i.updatedAt,
  }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A comment with its own timestamps; the issue's count goes up, its updated_at (the archive's) stays. */
export async function insertComment(
  db: Executor, c: { repositoryId: number; issueId: number; userId: number; body: string; createdAt: string; updatedAt: string },
): Promise<number> {
  const row = await db.insertInto('issue_comments').values({
    repository_id: c.repositoryId, issue_id: c.issueId, user_id: c.userId, body: c.body, created_at: c.createdAt, updated_at: c.updatedAt,
  }).returning('id').executeTakeFirstOrThrow();
  await db.updateTable('issues').set({ comments: sql<number>`comments + 1` }).where('id', '=', c.issueId).execute();
  return Number(row.id);
}
