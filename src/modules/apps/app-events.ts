// Which permission an installation needs to receive an event, as upstream's "Subscribe
// to events" page lists (an event whose permission the installation lacks is not sent,
// even when the installation accepted it). Events not listed need only metadata, which
// every installation has.
import type { Permissions } from './app-permissions.ts';

/** Event → the permissions any one of which lets an installation receive it. */
const EVENT_PERMISSIONS: Readonly<Record<string, readonly string[]>> = {
  issues: ['issues'],
  issue_comment: ['issues', 'pull_requests'],
  label: ['issues', 'pull_requests', 'metadata'],
  milestone: ['issues', 'pull_requests'],
  pull_request: ['pull_requests'],
  pull_request_review: ['pull_requests'],
  pull_request_review_comment: ['pull_requests'],
  pull_request_review_thread: ['pull_requests'],
  push: ['contents'],
  create: ['contents'],
  delete: ['contents'],
  release: ['contents'],
  commit_comment: ['contents'],
  fork: ['contents'],
  deployment: ['deployments'],
  deployment_status: ['deployments'],
  status: ['statuses'],
  member: ['members'],
  project: ['repository_projects', 'organization_projects'],
  project_card: ['repository_projects', 'organization_projects'],
  project_column: ['repository_projects', 'organization_projects'],
  star: ['metadata'],
  watch: ['metadata'],
  repository: ['metadata'],
  check_run: ['checks'],
  check_suite: ['checks'],
};

/** The events of `accepted` the installation's permissions let it receive. */
export function receivableEvents(accepted: readonly string[], permissions: Permissions): string[] {
  return accepted.filter((event) => {
    const needs = EVENT_PERMISSIONS[event];
    // metadata is implicit: every installation can read it.
    return !needs || needs.some((p) => p === 'metadata' || permissions[p] !== undefined);
  });
}
