// Runners, their labels, groups and reported jobs → API representations. Pure.
import type { Urls } from '../../urls.ts';
import type { RepositoryView } from '../repos/repos.views.ts';
import { jobMinutes } from '../billing/billing.compute.ts';
import type { ActionsJob } from '../billing/billing.model.ts';
import type { RunnerGroup, RunnerLabel } from './runners.model.ts';
import type { JobView, RunnerGroupView, RunnerView } from './runners.schemas.ts';
import type { IssuedRunnerToken, RunnerRecord } from './runners.service.ts';

export function runnerLabel(l: RunnerLabel) {
  return { id: l.id, name: l.name, type: l.type };
}

export function labelList(labels: readonly RunnerLabel[]) {
  return { total_count: labels.length, labels: labels.map(runnerLabel) };
}

/** A registration or remove token: shown once, when made; `repository` is the record of a repository's token's repository. */
export function runnerToken(t: IssuedRunnerToken, repository: RepositoryView | null) {
  const base = { token: t.token, expires_at: t.expiresAt };
  return repository
    ? { ...base, repository_selection: 'selected' as const, repositories: [repository] }
    : { ...base, repository_selection: 'all' as const };
}

/** A list wrapper as upstream's: the page's items under `key`, with the whole list's count. */
export function countedList<K extends string, T>(key: K, items: readonly T[], total: number): { total_count: number } & Record<K, T[]> {
  return { total_count: total, [key]: [...items] } as { total_count: number } & Record<K, T[]>;
}

/** `online` while the runner's last sign of life is more recent than `offlineBefore`. */
export function runner(r: RunnerRecord, offlineBefore: string): RunnerView {
  const x = r.runner;
  return {
    id: x.id,
    ...(x.groupId === null ? {} : { runner_group_id: x.groupId }),
    name: x.name,
    os: x.os,
    status: x.lastSeenAt !== null && x.lastSeenAt > offlineBefore ? 'online' : 'offline',
    busy: x.busy,
    ephemeral: x.ephemeral,
    version: x.version,
    labels: r.labels.map(runnerLabel),
  };
}

export function runnerGroup(urls: Urls, orgLogin: string, g: RunnerGroup): RunnerGroupView {
  const base = urls.api('orgs', orgLogin, 'actions', 'runner-groups', g.id);
  return {
    id: g.id,
    name: g.name,
    visibility: g.visibility,
    default: g.isDefault,
    ...(g.visibility === 'selected' ? { selected_repositories_url: `${base}/repositories` } : {}),
    runners_url: `${base}/runners`,
    hosted_runners_url: `${base}/hosted-runners`,
    network_configuration_id: g.networkConfigurationId,
    // No enterprise level yet: every group is the organization's own, and so are its rules;
    // nothing inherited allows public repositories either.
    inherited: false,
    inherited_allows_public_repositories: false,
    allows_public_repositories: g.allowsPublicRepositories,
    restricted_to_workflows: g.restrictedToWorkflows,
    selected_workflows: g.selectedWorkflows,
    workflow_restrictions_read_only: false,
  };
}

export function job(j: ActionsJob): JobView {
  return {
    id: j.id,
    repository_id: j.repositoryId,
    runner_id: j.runnerId,
    hosted: j.hosted,
    runner_os: j.runnerOs,
    workflow_path: j.workflowPath,
    rerun: j.rerun,
    started_at: j.startedAt,
    completed_at: j.completedAt,
    minutes: jobMinutes(j),
  };
}

/** What registration answers: the runner, and its credential (shown this once). */
export function registeredRunner(runnerView: RunnerView, credential: string) {
  return { runner: runnerView, credential };
}
