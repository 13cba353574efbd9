// Deployments and their statuses → API representations: loads the creators and apps the
// views show (one query each per list), then builds the views.
import type { AppContext } from '../../context.ts';
import { appRecordsByIds } from '../apps/apps.present.ts';
import * as users from '../users/users.service.ts';
import type { DeploymentRecord, DeploymentStatusRecord } from './deployments.model.ts';
import { deployment, deploymentStatus, type DeploymentDetail, type StatusDetail } from './deployments.views.ts';

function creatorsOf(ctx: AppContext, ids: readonly (number | null)[]) {
  return users.accountsByIds(ctx, [...new Set(ids.filter((id): id is number => id !== null))]);
}

/** The records with their creators and apps, as the views (and event payloads) take them. */
export async function deploymentDetails(ctx: AppContext, records: readonly DeploymentRecord[]): Promise<DeploymentDetail[]> {
  const [creators, apps] = await Promise.all([
    creatorsOf(ctx, records.map((r) => r.deployment.creatorId)),
    appRecordsByIds(ctx, records.map((r) => r.deployment.performedViaAppId)),
  ]);
  return records.map((r) => ({
    ...r, creator: creators.get(r.deployment.creatorId ?? -1) ?? null, app: apps.get(r.deployment.performedViaAppId ?? -1) ?? null,
  }));
}

/** The records with the creators and apps of their statuses and deployments. */
export async function statusDetails(ctx: AppContext, records: readonly DeploymentStatusRecord[]): Promise<StatusDetail[]> {
  const [creators, apps] = await Promise.all([
    creatorsOf(ctx, records.flatMap((r) => [r.status.creatorId, r.deployment.creatorId])),
    appRecordsByIds(ctx, records.flatMap((r) => [r.status.performedViaAppId, r.deployment.performedViaAppId])),
  ]);
  const of = (id: number | null) => creators.get(id ?? -1) ?? null;
  const appOf = (id: number | null) => apps.get(id ?? -1) ?? null;
  return records.map((r) => ({
    ...r, creator: of(r.deployment.creatorId), statusCreator: of(r.status.creatorId),
    app: appOf(r.deployment.performedViaAppId), statusApp: appOf(r.status.performedViaAppId),
  }));
}

export async function presentDeployments(ctx: AppContext, records: readonly DeploymentRecord[]) {
  return (await deploymentDetails(ctx, records)).map((d) => deployment(ctx.urls, d));
}

export async function presentDeploymentStatuses(ctx: AppContext, records: readonly DeploymentStatusRecord[]) {
  return (await statusDetails(ctx, records)).map((d) => deploymentStatus(ctx.urls, d));
}

export async function presentDeployment(ctx: AppContext, record: DeploymentRecord) {
  return (await presentDeployments(ctx, [record]))[0]!;
}

export async function presentDeploymentStatus(ctx: AppContext, record: DeploymentStatusRecord) {
  return (await presentDeploymentStatuses(ctx, [record]))[0]!;
}
