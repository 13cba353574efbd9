// Check runs, suites and annotations → API representation (upstream's check-run,
// check-suite, check-annotation and pull-request-minimal). Pure: checks.present.ts
// loads the apps, pull requests, head commits and repositories first.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { CommitSummary } from '../../git/repository.ts';
import type { Urls } from '../../urls.ts';
import type { PullRequestRecord } from '../pulls/pulls.model.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { CheckAnnotation, CheckRun, CheckSuite } from './checks.model.ts';
import type { CheckRunView, CheckSuiteView } from './checks.schemas.ts';

export type AppView = NonNullable<CheckRunView['app']>;
export type PullMinimalView = CheckRunView['pull_requests'][number];

function repoApi(urls: Urls, repo: Repo): string {
  return urls.api('repos', repo.owner.login, repo.name);
}

/** A pull request as check runs and suites list it; `heads` are the head repositories by id. */
export function pullMinimal(urls: Urls, base: Repo, heads: ReadonlyMap<number, Repo>, p: PullRequestRecord): PullMinimalView {
  const side = (r: Repo, ref: string, sha: string) => ({ ref, sha, repo: { id: r.id, url: repoApi(urls, r), name: r.name } });
  const head = (p.headRepositoryId !== null ? heads.get(p.headRepositoryId) : undefined) ?? base;
  return {
    id: p.id, number: p.number, url: `${repoApi(urls, base)}/pulls/${p.number}`,
    head: side(head, p.headRef, p.headSha), base: side(base, p.baseRef, p.baseSha),
  };
}

export function checkRun(urls: Urls, repo: Repo, run: CheckRun, app: AppView | null, pulls: PullMinimalView[]): CheckRunView {
  const api = `${repoApi(urls, repo)}/check-runs/${run.id}`;
  return {
    id: run.id,
    head_sha: run.headSha,
    node_id: encodeNodeId('CheckRun', run.id),
    // Upstream quirks kept: an unset external id is "", an unset details URL the app's homepage.
    external_id: run.externalId ?? '',
    url: api,
    html_url: urls.html(repo.owner.login, repo.name, 'runs', String(run.id)),
    details_url: run.detailsUrl ?? app?.external_url ?? null,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.startedAt,
    completed_at: run.completedAt,
    output: {
      title: run.output.title, summary: run.output.summary, text: run.output.text,
      annotations_count: run.output.annotationsCount, annotations_url: `${api}/annotations`,
    },
    name: run.name,
    check_suite: { id: run.suiteId },
    app,
    pull_requests: pulls,
  };
}

/** The simple-commit of a suite's head. */
export function simpleCommit(c: CommitSummary | null): CheckSuiteView['head_commit'] {
  return c ? {
    id: c.sha, tree_id: c.tree, message: c.message, timestamp: c.author.date,
    author: { name: c.author.name, email: c.author.email }, committer: { name: c.committer.name, email: c.committer.email },
  } : null;
}

export interface SuiteDetail {
  suite: CheckSuite;
  app: AppView | null;
  pulls: PullMinimalView[];
  headCommit: CommitSummary | null;
  latestCount: number;
}

export function checkSuite(urls: Urls, repo: Repo, repository: unknown, d: SuiteDetail): CheckSuiteView {
  const s = d.suite;
  const api = `${repoApi(urls, repo)}/check-suites/${s.id}`;
  return {
    id: s.id,
    node_id: encodeNodeId('CheckSuite', s.id),
    head_branch: s.headBranch,
    head_sha: s.headSha,
    status: s.status,
    conclusion: s.conclusion,
    url: api,
    before: s.before,
    after: s.after,
    pull_requests: d.pulls,
    app: d.app,
    repository,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    head_commit: simpleCommit(d.headCommit),
    latest_check_runs_count: d.latestCount,
    check_runs_url: `${api}/check-runs`,
    // Suites of apps are rerequested through their app; users' suites have no one to ask.
    rerequestable: s.appId !== null,
    runs_rerequestable: s.appId !== null,
  };
}

export function annotation(urls: Urls, repo: Repo, headSha: string, a: CheckAnnotation) {
  return {
    path: a.path,
    start_line: a.startLine,
    end_line: a.endLine,
    start_column: a.startColumn,
    end_column: a.endColumn,
    annotation_level: a.level,
    title: a.title,
    message: a.message,
    raw_details: a.rawDetails,
    blob_href: urls.html(repo.owner.login, repo.name, 'blob', headSha, ...a.path.split('/')),
  };
}
