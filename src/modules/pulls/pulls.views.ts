// Pull requests → API representation: the list record (pull-request-simple), the full
// record with its git figures, files, the merge result. Pure: the service loads the
// issue's representation, repositories, users and git figures first.
import type { Static } from '@sinclair/typebox';
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import type { IssueView } from '../issues/issues.views.ts';
import { team as teamView, type TeamRecord } from '../orgs/orgs.views.ts';
import type { Team } from '../orgs/orgs.model.ts';
import type { Presentable } from '../repos/repos.service.ts';
import { repository, type RepositoryView } from '../repos/repos.views.ts';
import { licenseSimple } from '../templates/templates.views.ts';
import type { Account } from '../users/users.model.ts';
import { simpleUser, type SimpleUser } from '../users/users.views.ts';
import type { AutoMergeRecord } from './auto-merge.model.ts';
import type { PullRequestRecord } from './pulls.model.ts';
import type { MergeResult, PullRequest, PullRequestSimple } from './pulls.schemas.ts';

export interface PullViewOptions {
  urls: Urls;
  /** Preview media types asked for (nebula, baptiste on the repositories). */
  previews: ReadonlySet<string>;
  /**
   * Repository views already built for this answer: a page of pull requests shows the
   * same base (and mostly head) repository on every record, built once.
   */
  repoViews?: Map<Presentable, RepositoryView>;
}

/** A requested team with its parent and the login of its organization (its record needs both). */
export interface RequestedTeam {
  team: Team;
  parent: Team | null;
  orgLogin: string;
}

/** One side of a pull request: the branch, its commit and its repository (null once a fork is gone). */
export interface PullSide {
  ref: string;
  sha: string;
  repo: Presentable | null;
}

export interface PullDetail {
  pull: PullRequestRecord;
  /** The issue's own representation (title, body fields, user, labels, assignees, milestone …). */
  issue: IssueView;
  /** The repository the pull request is in (its base). */
  repo: Presentable;
  head: PullSide;
  base: PullSide;
  requestedReviewers: Account[];
  requestedTeams: RequestedTeam[];
  mergedBy: Account | null;
  /** The auto-merge request and who enabled it; null without one. */
  autoMerge: { request: AutoMergeRecord; enabledBy: Account } | null;
}

/** What only the full record carries: figures from git and counts. */
export interface PullFigures {
  commits: number;
  additions: number;
  deletions: number;
  changedFiles: number;
  reviewComments: number;
  mergeable: boolean | null;
  rebaseable: boolean | null;
  mergeableState: string;
}

export interface PullUrls {
  api: string;
  html: string;
}

export function pullUrls(urls: Urls, owner: string, repo: string, number: number): PullUrls {
  return { api: urls.api('repos', owner, repo, 'pulls', number), html: urls.html(owner, repo, 'pull', number) };
}

function repoView(p: Presentable, o: PullViewOptions): RepositoryView {
  const known = o.repoViews?.get(p);
  if (known) return known;
  const view = repository(p.repo, {
    urls: o.urls, counts: p.counts, role: p.role, previews: o.previews,
    license: p.repo.licenseKey ? licenseSimple(p.repo.licenseKey, o.urls) : null,
  });
  o.repoViews?.set(p, view);
  return view;
}

function side(s: PullSide, o: PullViewOptions) {
  const owner = s.repo?.repo.owner ?? null;
  return {
    // Upstream labels a side whose repository is gone with the ref alone.
    label: owner ? `${owner.login}:${s.ref}` : s.ref,
    ref: s.ref,
    sha: s.sha,
    user: owner ? simpleUser(owner, o.urls) : null,
    repo: s.repo ? repoView(s.repo, o) : null,
  };
}

/**
 * REST's auto_merge: the commit's words as the merge will use them, upstream's defaults
 * (those of PUT …/merge) where none were given.
 */
function autoMergeView(d: PullDetail, a: NonNullable<PullDetail['autoMerge']>, urls: Urls) {
  const { mergeMethod, commitTitle, commitMessage } = a.request;
  const headLabel = d.head.repo ? `${d.head.repo.repo.owner.login}/${d.head.ref}` : d.head.ref;
  const defaultTitle = mergeMethod === 'merge' ? `Merge pull request #${d.pull.number} from ${headLabel}`
    : mergeMethod === 'squash' ? `${d.issue.title} (#${d.pull.number})` : '';
  return {
    enabled_by: simpleUser(a.enabledBy, urls),
    merge_method: mergeMethod,
    commit_title: commitTitle ?? defaultTitle,
    commit_message: commitMessage ?? (mergeMethod === 'merge' ? d.issue.title : ''),
  };
}

function link(href: string) {
  return { href };
}

/** The list record (upstream's pull-request-simple). */
export function pullRequestSimple(d: PullDetail, o: PullViewOptions): PullRequestSimpleView {
  const { urls } = o;
  const p = d.pull;
  const i = d.issue;
  const r = d.repo.repo;
  const repoApi = urls.api('repos', r.owner.login, r.name);
  const u = pullUrls(urls, r.owner.login, r.name, p.number);
  const issueApi = `${repoApi}/issues/${p.number}`;
  const statuses = `${repoApi}/statuses/${p.headSha}`;
  return {
    url: u.api,
    id: p.id,
    node_id: encodeNodeId('PullRequest', p.id),
    html_url: u.html,
    diff_url: `${u.html}.diff`,
    patch_url: `${u.html}.patch`,
    issue_url: issueApi,
    commits_url: `${u.api}/commits`,
    review_comments_url: `${u.api}/comments`,
    review_comment_url: `${repoApi}/pulls/comments{/number}`,
    comments_url: `${issueApi}/comments`,
    statuses_url: statuses,
    number: p.number,
    state: i.state,
    locked: i.locked,
    title: i.title,
    user: i.user,
    ...('body' in i ? { body: i.body ?? null } : {}),
    ...('body_text' in i ? { body_text: i.body_text ?? null } : {}),
    ...('body_html' in i ? { body_html: i.body_html ?? null } : {}),
    labels: i.labels,
    milestone: i.milestone,
    ...('active_lock_reason' in i ? { active_lock_reason: i.active_lock_reason ?? null } : {}),
    created_at: i.created_at,
    updated_at: i.updated_at,
    closed_at: i.closed_at,
    merged_at: p.mergedAt,
    merge_commit_sha: p.mergeCommitSha,
    assignee: i.assignee,
    assignees: i.assignees,
    requested_reviewers: d.requestedReviewers.map((a) => simpleUser(a, urls)),
    requested_teams: d.requestedTeams.map((t): TeamRecord => teamView(t.team, t.parent, t.orgLogin, urls)),
    head: side(d.head, o),
    base: side(d.base, o),
    _links: {
      self: link(u.api),
      html: link(u.html),
      issue: link(issueApi),
      comments: link(`${issueApi}/comments`),
      review_comments: link(`${u.api}/comments`),
      review_comment: link(`${repoApi}/pulls/comments{/number}`),
      commits: link(`${u.api}/commits`),
      statuses: link(statuses),
    },
    author_association: i.author_association,
    auto_merge: d.autoMerge ? autoMergeView(d, d.autoMerge, urls) : null,
    draft: p.draft,
  };
}

/** The full record (GET one, create, update, webhook payloads). */
export function pullRequest(d: PullDetail, f: PullFigures, o: PullViewOptions): PullRequestView {
  return {
    ...pullRequestSimple(d, o),
    merged: d.pull.mergedAt !== null,
    mergeable: f.mergeable,
    rebaseable: f.rebaseable,
    mergeable_state: f.mergeableState,
    merged_by: d.mergedBy ? simpleUser(d.mergedBy, o.urls) : null,
    comments: d.issue.comments,
    review_comments: f.reviewComments,
    maintainer_can_modify: d.pull.maintainerCanModify,
    commits: f.commits,
    additions: f.additions,
    deletions: f.deletions,
    changed_files: f.changedFiles,
  };
}

export type PullRequestView = Static<typeof PullRequest>;
export type PullRequestSimpleView = Static<typeof PullRequestSimple>;

export function requestedReviewers(users: Account[], teams: RequestedTeam[], urls: Urls): { users: SimpleUser[]; teams: TeamRecord[] } {
  return { users: users.map((a) => simpleUser(a, urls)), teams: teams.map((t) => teamView(t.team, t.parent, t.orgLogin, urls)) };
}

export function mergeResult(sha: string): Static<typeof MergeResult> {
  return { sha, merged: true, message: 'Pull Request successfully merged' };
}
