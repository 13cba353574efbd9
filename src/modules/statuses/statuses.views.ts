// Commit statuses → API representation (the status record, the combined status, the
// status event's keys). Pure.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import type { CommitRecordData } from '../git-data/commits.service.ts';
import { commitRecord } from '../git-data/commits.views.ts';
import { repoUrls } from '../git-data/git-data.views.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { Account } from '../users/users.model.ts';
import { simpleUser } from '../users/users.views.ts';
import type { CommitStatus } from './statuses.model.ts';
import type { CombinedStatusView, SimpleStatusView, StatusView } from './statuses.schemas.ts';

/** A status with the creator its view shows (statuses.present.ts loads them). */
export interface StatusDetail {
  status: CommitStatus;
  creator: Account | null;
}

function repoApi(urls: Urls, repo: Repo): string {
  return urls.api('repos', repo.owner.login, repo.name);
}

/** The fields of a status shown inside a combined status (no creator). */
export function simpleStatus(urls: Urls, repo: Repo, { status: s, creator }: StatusDetail): SimpleStatusView {
  return {
    url: `${repoApi(urls, repo)}/statuses/${s.sha}`,
    avatar_url: creator ? urls.avatar(creator.id) : null,
    id: s.id,
    node_id: encodeNodeId('Status', s.id),
    state: s.state,
    description: s.description,
    target_url: s.targetUrl,
    context: s.context,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

export function commitStatus(urls: Urls, repo: Repo, d: StatusDetail): StatusView {
  return { ...simpleStatus(urls, repo, d), creator: d.creator ? simpleUser(d.creator, urls) : null };
}

export function combinedStatus(
  urls: Urls, repo: Repo, repository: unknown,
  c: { sha: string; state: string; statuses: StatusDetail[]; total: number; requiredContexts: ReadonlySet<string> | null },
): CombinedStatusView {
  const api = repoApi(urls, repo);
  return {
    state: c.state,
    statuses: c.statuses.map((d) => ({ ...simpleStatus(urls, repo, d), required: c.requiredContexts && c.requiredContexts.has(d.status.context) })),
    sha: c.sha,
    total_count: c.total,
    repository,
    commit_url: `${api}/commits/${c.sha}`,
    url: `${api}/commits/${c.sha}/status`,
  };
}

/** The event-specific keys of the status webhook payload. */
export function statusEventPayload(
  urls: Urls, repo: Repo, d: StatusDetail, commit: CommitRecordData | null, branches: { name: string; sha: string }[],
): Record<string, unknown> {
  const u = repoUrls(urls, repo);
  const s = d.status;
  return {
    id: s.id,
    sha: s.sha,
    name: `${repo.owner.login}/${repo.name}`,
    target_url: s.targetUrl,
    avatar_url: d.creator ? urls.avatar(d.creator.id) : null,
    context: s.context,
    description: s.description,
    state: s.state,
    commit: commit ? commitRecord(urls, u, repo, commit) : null,
    branches: branches.map((b) => ({ name: b.name, commit: { sha: b.sha, url: `${u.api}/commits/${b.sha}` }, protected: false })),
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}
