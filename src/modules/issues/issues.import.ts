// Import-shaped entry points for migration archives (migration-import): labels,
// milestones, issues (and the issue rows of pull requests) and comments put in with the
// archive's numbers, authors and timestamps, so that links into the old host's numbers
// still hold. No actor and no new events: nobody opened or commented anything here; the
// timeline events the archive has go in as they were (importIssueEvents).
import { inTransaction, type AppContext } from '../../context.ts';
import { nowIso } from '../../domain/clock.ts';
import * as eventStore from './issue-events.store.ts';
import type { IssueEventDetail, IssueEventName, IssueRecord, MilestoneRecord } from './issues.model.ts';
import * as importStore from './issues.import.store.ts';
import * as store from './issues.store.ts';
import * as labelStore from './labels.store.ts';

export interface ImportedLabel {
  name: string;
  color: string;
  description: string | null;
  isDefault: boolean;
}

/** The labels, skipping names the repository has already; answers every label id by lower-cased name. */
export async function importLabels(ctx: AppContext, repositoryId: number, labels: readonly ImportedLabel[]): Promise<Map<string, number>> {
  await labelStore.insertMany(ctx.db, repositoryId, labels, nowIso(ctx.clock));
  const found = await labelStore.findByNames(ctx.db, repositoryId, labels.map((l) => l.name));
  return new Map(found.map((l) => [l.name.toLowerCase(), l.id]));
}

export type ImportedMilestone = Omit<MilestoneRecord, 'id' | 'repositoryId'>;

/** A milestone keeping its number; answers its id. */
export async function importMilestone(ctx: AppContext, repositoryId: number, m: ImportedMilestone): Promise<number> {
  return inTransaction(ctx, async (tx) => {
    const id = await importStore.insertMilestone(tx.db, { ...m, repositoryId });
    await importStore.raiseCounters(tx.db, repositoryId, 0, m.number, 0);
    return id;
  });
}

export interface ImportedIssue extends Omit<importStore.ImportedIssueRow, 'repositoryId'> {
  labelIds: number[];
  assigneeIds: number[];
}

/** An issue (or a pull request's issue row) keeping its number, state and timestamps. */
export async function importIssue(ctx: AppContext, repositoryId: number, i: ImportedIssue): Promise<IssueRecord> {
  return inTransaction(ctx, async (tx) => {
    const { labelIds, assigneeIds, ...row } = i;
    const id = await importStore.insertIssue(tx.db, { ...row, repositoryId });
    await importStore.raiseCounters(tx.db, repositoryId, i.number, 0, i.state === 'open' ? 1 : 0);
    await labelStore.attach(tx.db, id, labelIds, i.createdAt);
    await store.addAssignees(tx.db, id, assigneeIds, i.createdAt);
    return (await store.findById(tx.db, id))!;
  });
}

export interface ImportedComment {
  userId: number;
  body: string;
  createdAt: string;
  updatedAt: string;
}

/** A comment on an imported issue, with its author and timestamps; answers its id. */
export async function importComment(ctx: AppContext, issue: IssueRecord, c: ImportedComment): Promise<number> {
  return inTransaction(ctx, (tx) => importStore.insertComment(tx.db, { ...c, repositoryId: issue.repositoryId, issueId: issue.id }));
}

export interface ImportedEvent {
  actorId: number | null;
  event: IssueEventName;
  detail: IssueEventDetail;
  commitId: string | null;
  createdAt: string;
}

/** Timeline events of an imported issue, in the order given (the timeline lists them by id), each at its own time. */
export async function importIssueEvents(ctx: AppContext, issue: IssueRecord, events: readonly ImportedEvent[]): Promise<void> {
  for (const e of events) {
    await eventStore.insertMany(ctx.db, [{
      repositoryId: issue.repositoryId, issueId: issue.id, actorId: e.actorId, event: e.event, detail: e.detail, commitId: e.commitId,
    }], e.createdAt);
  }
}
