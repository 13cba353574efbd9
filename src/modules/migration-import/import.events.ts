// Timeline events of an archive, imported last (after every repository and the
// organization's projects) so that events about project cards find the cards, in the
// archive's order (oldest first), so that each timeline and the repository's list read
// as they did. An event about a card the import has not made (removed from its
// project at the source, or on a project the archive left out) is left out, as is a
// review_dismissed event whose review was not made (its pull request skipped) and a
// review request of a team the import has not.
import type { AppContext } from '../../context.ts';
import { importIssueEvents } from '../issues/issues.import.ts';
import type { IssueEventDetail, IssueRecord as StoredIssue } from '../issues/issues.model.ts';
import { cardUrl, projectUrl } from '../projects/projects.views.ts';
import type { ImportedCardRef } from './import.projects.ts';
import type { EventRecord } from './import.records.ts';

/** What the import made that events name, by archive key: issues by number, cards and reviews by id, teams by lower-cased name. */
export interface EventTargets {
  issues: ReadonlyMap<number, StoredIssue>;
  cards: ReadonlyMap<number, ImportedCardRef>;
  reviews: ReadonlyMap<number, number>;
  teams: ReadonlyMap<string, number>;
}

export async function importEvents(
  tx: AppContext, events: readonly EventRecord[], made: EventTargets, maybe: (login: string | null) => number | null,
): Promise<void> {
  // One by one in the archive's order (the source's, oldest first): each timeline, and the repository's list, read as they did.
  for (const e of events) {
    const issue = made.issues.get(e.issueNumber);
    const detail = issue ? detailOf(tx, e, made, maybe) : null;
    if (!issue || detail === null) continue;
    await importIssueEvents(tx, issue, [{ actorId: maybe(e.actor), event: e.event, commitId: e.commitId, createdAt: e.createdAt, detail }]);
  }
}

function detailOf(tx: AppContext, e: EventRecord, made: EventTargets, maybe: (login: string | null) => number | null): IssueEventDetail | null {
  let projectCard: IssueEventDetail['projectCard'];
  if (e.projectCard) {
    const card = made.cards.get(e.projectCard.sourceId);
    if (!card) return null;
    projectCard = {
      id: card.id, url: cardUrl(tx.urls, card.id), project_id: card.projectId, project_url: projectUrl(tx.urls, card.projectId),
      column_name: e.projectCard.columnName, ...(e.projectCard.previousColumnName !== null ? { previous_column_name: e.projectCard.previousColumnName } : {}),
    };
  }
  const review = reviewDetail(e, made, maybe);
  if (review === null) return null;
  return {
    ...review,
    ...(e.label ? { label: e.label } : {}), ...(e.milestone !== null ? { milestone: { title: e.milestone } } : {}), ...(e.rename ? { rename: e.rename } : {}),
    ...(e.event === 'assigned' || e.event === 'unassigned' ? { assigneeId: maybe(e.assignee) ?? undefined, assignerId: maybe(e.assigner) ?? undefined } : {}),
    ...(e.event === 'locked' ? { lockReason: e.lockReason } : {}), ...(e.event === 'closed' || e.event === 'reopened' ? { stateReason: e.stateReason } : {}),
    ...(projectCard ? { projectCard } : {}),
  };
}

/** A review request's or dismissal's part of the detail; null when what it names was not made here. */
function reviewDetail(e: EventRecord, made: EventTargets, maybe: (login: string | null) => number | null): Partial<IssueEventDetail> | null {
  if (e.event === 'review_dismissed') {
    const d = e.dismissedReview;
    const reviewId = d ? made.reviews.get(d.reviewSourceId) : undefined;
    if (!d || reviewId === undefined) return null;
    return { dismissedReview: { state: d.state, review_id: reviewId, dismissal_message: d.message, dismissal_commit_id: d.commitId } };
  }
  if (e.event !== 'review_requested' && e.event !== 'review_request_removed') return {};
  const teamId = e.requestedTeam === null ? undefined : made.teams.get(e.requestedTeam.toLowerCase());
  if (e.requestedTeam !== null && teamId === undefined) return null;
  const requesterId = maybe(e.reviewRequester);
  const reviewerId = maybe(e.requestedReviewer);
  return {
    ...(requesterId === null ? {} : { reviewRequesterId: requesterId }),
    ...(reviewerId === null ? {} : { requestedReviewerId: reviewerId }),
    ...(teamId === undefined ? {} : { requestedTeamId: teamId }),
  };
}
