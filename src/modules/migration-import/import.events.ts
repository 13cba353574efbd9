// Timeline events of an archive, imported last (after every repository and the
// organization's projects) so that events about project cards find the cards, in the
// archive's order (oldest first), so that each timeline and the repository's list read
// as they did. An event about a card the import has not made (removed from its
// project at the source, or on a project the archive left out) is left out.
import type { AppContext } from '../../context.ts';
import { importIssueEvents } from '../issues/issues.import.ts';
import type { IssueEventDetail, IssueRecord as StoredIssue } from '../issues/issues.model.ts';
import { cardUrl, projectUrl } from '../projects/projects.views.ts';
import type { ImportedCardRef } from './import.projects.ts';
import type { EventRecord } from './import.records.ts';

export async function importEvents(
  tx: AppContext, events: readonly EventRecord[], issues: ReadonlyMap<number, StoredIssue>, cards: ReadonlyMap<number, ImportedCardRef>,
  maybe: (login: string | null) => number | null,
): Promise<void> {
  // One by one in the archive's order (the source's, oldest first): each timeline, and the repository's list, read as they did.
  for (const e of events) {
    const issue = issues.get(e.issueNumber);
    const detail = issue ? detailOf(tx, e, cards, maybe) : null;
    if (!issue || detail === null) continue;
    await importIssueEvents(tx, issue, [{ actorId: maybe(e.actor), event: e.event, commitId: e.commitId, createdAt: e.createdAt, detail }]);
  }
}

function detailOf(tx: AppContext, e: EventRecord, cards: ReadonlyMap<number, ImportedCardRef>, maybe: (login: string | null) => number | null): IssueEventDetail | null {
  let projectCard: IssueEventDetail['projectCard'];
  if (e.projectCard) {
    const card = cards.get(e.projectCard.sourceId);
    if (!card) return null;
    projectCard = {
      id: card.id, url: cardUrl(tx.urls, card.id), project_id: card.projectId, project_url: projectUrl(tx.urls, card.projectId),
      column_name: e.projectCard.columnName, ...(e.projectCard.previousColumnName !== null ? { previous_column_name: e.projectCard.previousColumnName } : {}),
    };
  }
  return {
    ...(e.label ? { label: e.label } : {}), ...(e.milestone !== null ? { milestone: { title: e.milestone } } : {}), ...(e.rename ? { rename: e.rename } : {}),
    ...(e.event === 'assigned' || e.event === 'unassigned' ? { assigneeId: maybe(e.assignee) ?? undefined, assignerId: maybe(e.assigner) ?? undefined } : {}),
    ...(e.event === 'locked' ? { lockReason: e.lockReason } : {}), ...(e.event === 'closed' || e.event === 'reopened' ? { stateReason: e.stateReason } : {}),
    ...(projectCard ? { projectCard } : {}),
  };
}
