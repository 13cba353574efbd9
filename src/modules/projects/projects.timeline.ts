// What a card showing an issue or pull request writes on its timeline: added_to_project,
// moved_columns_in_project and removed_from_project, with upstream's project_card.
import type { AppContext } from '../../context.ts';
import { recordIssueEvent } from '../issues/issue-events.service.ts';
import * as issues from '../issues/issues.service.ts';
import type { ProjectCard } from './projects.model.ts';
import { cardUrl, projectUrl } from './projects.views.ts';

export type TimelineEvent = 'added_to_project' | 'moved_columns_in_project' | 'removed_from_project';

export async function cardTimelineEvent(
  tx: AppContext, actorId: number, card: ProjectCard, columnName: string, event: TimelineEvent, previousColumnName?: string,
): Promise<void> {
  if (card.issueId === null) return;
  const [issue] = await issues.findIssuesByIds(tx, [card.issueId]);
  if (!issue) return;
  await recordIssueEvent(tx, {
    repositoryId: issue.repositoryId, issueId: issue.id, actorId, event,
    detail: {
      projectCard: {
        id: card.id, url: cardUrl(tx.urls, card.id), project_id: card.projectId, project_url: projectUrl(tx.urls, card.projectId),
        column_name: columnName, ...(previousColumnName !== undefined ? { previous_column_name: previousColumnName } : {}),
      },
    },
  });
}
