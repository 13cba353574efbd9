// Deployments and deployment statuses → API representation, and the event-specific
// keys of their webhook payloads. Pure.
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import type { AppRecordView } from '../apps/apps.present.ts';
import type { Account } from '../users/users.model.ts';
import { simpleUser } from '../users/users.views.ts';
import type { DeploymentRecord, DeploymentStatusRecord } from './deployments.model.ts';
import type { DeploymentStatusView, DeploymentView } from './deployments.schemas.ts';

/** A deployment with the creator and app its view shows (deployments.present.ts loads them). */
export interface DeploymentDetail extends DeploymentRecord {
  creator: Account | null;
  /** The app that created it (null for people's work, or once the app is deleted). */
  app: AppRecordView | null;
}

/** A status with the creators (and apps) of the status and of its deployment. */
export interface StatusDetail extends DeploymentStatusRecord, DeploymentDetail {
  statusCreator: Account | null;
  statusApp: AppRecordView | null;
}

function repositoryUrl(urls: Urls, d: DeploymentDetail): string {
  return urls.api('repos', d.repo.owner.login, d.repo.name);
}

export function deploymentUrl(urls: Urls, d: DeploymentDetail): string {
  return `${repositoryUrl(urls, d)}/deployments/${d.deployment.id}`;
}

export function deployment(urls: Urls, d: DeploymentDetail): DeploymentView {
  const x = d.deployment;
  const url = deploymentUrl(urls, d);
  return {
    url,
    id: x.id,
    node_id: encodeNodeId('Deployment', x.id),
    sha: x.sha,
    ref: x.ref,
    task: x.task,
    payload: x.payload,
    original_environment: x.originalEnvironment,
    environment: x.environment,
    description: x.description,
    creator: d.creator ? simpleUser(d.creator, urls) : null,
    created_at: x.createdAt,
    updated_at: x.updatedAt,
    statuses_url: `${url}/statuses`,
    repository_url: repositoryUrl(urls, d),
    transient_environment: x.transient,
    production_environment: x.production,
    performed_via_github_app: d.app,
  };
}

export function deploymentStatus(urls: Urls, d: StatusDetail): DeploymentStatusView {
  const s = d.status;
  const deploymentAt = deploymentUrl(urls, d);
  return {
    url: `${deploymentAt}/statuses/${s.id}`,
    id: s.id,
    node_id: encodeNodeId('DeploymentStatus', s.id),
    state: s.state,
    creator: d.statusCreator ? simpleUser(d.statusCreator, urls) : null,
    description: s.description,
    environment: s.environment,
    target_url: s.targetUrl,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    deployment_url: deploymentAt,
    repository_url: repositoryUrl(urls, d),
    environment_url: s.environmentUrl,
    log_url: s.logUrl,
    performed_via_github_app: d.statusApp,
  };
}

export function deploymentEventPayload(urls: Urls, d: DeploymentDetail): Record<string, unknown> {
  return { deployment: deployment(urls, d), workflow: null, workflow_run: null };
}

export function deploymentStatusEventPayload(urls: Urls, d: StatusDetail): Record<string, unknown> {
  return { deployment_status: deploymentStatus(urls, d), deployment: deployment(urls, d), check_run: null, workflow: null, workflow_run: null };
}
