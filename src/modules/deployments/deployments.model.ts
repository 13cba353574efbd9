// Deployments and their statuses as the domain sees them.
import type { Repo } from '../repos/repos.model.ts';

export const DEPLOYMENT_STATES = ['error', 'failure', 'inactive', 'in_progress', 'queued', 'pending', 'success'] as const;
export type DeploymentState = (typeof DEPLOYMENT_STATES)[number];

export const DEFAULT_TASK = 'deploy';
export const DEFAULT_ENVIRONMENT = 'production';
/** Upstream's (and the spec's) limit on a deployment status's description. */
export const MAX_STATUS_DESCRIPTION = 140;

export interface Deployment {
  id: number;
  repositoryId: number;
  sha: string;
  ref: string;
  task: string;
  /** An object, or a string kept as given. */
  payload: Record<string, unknown> | string;
  originalEnvironment: string;
  /** The environment of the latest status (the original one before any). */
  environment: string;
  description: string | null;
  creatorId: number | null;
  transient: boolean;
  production: boolean;
  /** State of the latest status; null before any. */
  latestState: DeploymentState | null;
  /** The app whose token created it (performed_via_github_app), or null. */
  performedViaAppId: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeploymentStatus {
  id: number;
  deploymentId: number;
  state: DeploymentState;
  description: string;
  environment: string;
  targetUrl: string;
  logUrl: string;
  environmentUrl: string;
  creatorId: number | null;
  /** The app whose token created it, or null. */
  performedViaAppId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** A deployment with its repository: what the service answers, REST and GraphQL alike. */
export interface DeploymentRecord {
  repo: Repo;
  deployment: Deployment;
}

/** A deployment status with its deployment and repository. */
export interface DeploymentStatusRecord extends DeploymentRecord {
  status: DeploymentStatus;
}

/**
 * Upstream calls a deployment active while its latest status is success: "any
 * non-successful deployment status" makes it inactive (the deletion rule's wording).
 */
export function isActive(d: Deployment): boolean {
  return d.latestState === 'success';
}
