// The pull_request webhook events, recorded in the transaction of the change. Their
// payloads carry the full pull request record (as upstream's do), so that webhook
// consumers and notifications have the body, the user and the requested reviewers.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { IssueRecord } from '../issues/issues.model.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { PullRequestRecord } from './pulls.model.ts';
import { presentPull } from './pulls.present.ts';
import type { PullRequestView } from './pulls.views.ts';

export function orgIdOf(repo: Repo): number | null {
  return repo.owner.type === 'Organization' ? repo.ownerId : null;
}

/** The full record as a webhook payload shows it (raw body, no caller permissions). */
export async function payloadPull(tx: AppContext, actor: Actor, repo: Repo, pull: PullRequestRecord, issue: IssueRecord): Promise<PullRequestView> {
  return presentPull(tx, actor, repo, { pull, issue }, { forPayload: true });
}

/** Records one `pull_request` event; `extra` holds the action's own keys (changes, requested_reviewer, before …). */
export async function recordPullEvent(
  tx: AppContext, actor: Actor, repo: Repo, pull: PullRequestRecord, issue: IssueRecord, action: string, extra: Record<string, unknown> = {},
): Promise<void> {
  const view = await payloadPull(tx, actor, repo, pull, issue);
  await recordEvent(tx, {
    event: 'pull_request', action, repositoryId: repo.id, organizationId: orgIdOf(repo), actorId: actor.user?.id ?? null,
    payload: { number: pull.number, pull_request: view, ...extra },
  });
}
