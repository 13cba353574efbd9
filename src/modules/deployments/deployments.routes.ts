// Deployments and deployment statuses of a repository.
import { Type } from '@sinclair/typebox';
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import {
  CreateDeploymentBody, CreateStatusBody, Deployment, DeploymentList, DeploymentParams, DeploymentStatus,
  DeploymentStatusList, ListDeploymentsQuery, MergedResponse, PageQuery, RepoParams, StatusParams,
} from './deployments.schemas.ts';
import { presentDeployment, presentDeployments, presentDeploymentStatus, presentDeploymentStatuses } from './deployments.present.ts';
import * as deployments from './deployments.service.ts';

const SCOPES = ['repo_deployment', 'repo'];

export function deploymentsRoutes(app: Router): void {
  app.get('/repos/:owner/:repo/deployments', {
    schema: { params: RepoParams, querystring: ListDeploymentsQuery, response: { 200: DeploymentList } },
    config: { operationId: 'repos/list-deployments', acceptedScopes: SCOPES },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await deployments.listDeployments(request.server.ctx, request.actor, owner, repo, request.query, p);
    return paged(await presentDeployments(request.server.ctx, page.items), p, page.total);
  });

  app.post('/repos/:owner/:repo/deployments', {
    schema: { params: RepoParams, body: CreateDeploymentBody, response: { 201: Deployment, 202: MergedResponse } },
    config: { operationId: 'repos/create-deployment', resource: 'Deployment', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const result = await deployments.createDeployment(request.server.ctx, request.actor, owner, repo, request.body);
    // Upstream answers an auto-merge with the merge, not a deployment: the client asks again.
    if (!result.created) return reply.code(202).send({ message: result.message });
    const view = await presentDeployment(request.server.ctx, result.record);
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/deployments/:deployment_id', {
    schema: { params: DeploymentParams, response: { 200: Deployment } },
    config: { operationId: 'repos/get-deployment', acceptedScopes: SCOPES },
  }, async (request) => {
    const { owner, repo, deployment_id: id } = request.params;
    return presentDeployment(request.server.ctx, await deployments.getDeployment(request.server.ctx, request.actor, owner, repo, id));
  });

  app.delete('/repos/:owner/:repo/deployments/:deployment_id', {
    schema: { params: DeploymentParams, response: { 204: Type.Null() } },
    config: { operationId: 'repos/delete-deployment', resource: 'Deployment', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const { owner, repo, deployment_id: id } = request.params;
    await deployments.deleteDeployment(request.server.ctx, request.actor, owner, repo, id);
    return reply.code(204).send(null);
  });

  app.get('/repos/:owner/:repo/deployments/:deployment_id/statuses', {
    schema: { params: DeploymentParams, querystring: PageQuery, response: { 200: DeploymentStatusList } },
    config: { operationId: 'repos/list-deployment-statuses', acceptedScopes: SCOPES },
  }, async (request) => {
    const { owner, repo, deployment_id: id } = request.params;
    const p = pageOf(request.query);
    const page = await deployments.listDeploymentStatuses(request.server.ctx, request.actor, owner, repo, id, p);
    return paged(await presentDeploymentStatuses(request.server.ctx, page.items), p, page.total);
  });

  app.post('/repos/:owner/:repo/deployments/:deployment_id/statuses', {
    schema: { params: DeploymentParams, body: CreateStatusBody, response: { 201: DeploymentStatus } },
    config: { operationId: 'repos/create-deployment-status', resource: 'DeploymentStatus', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const { owner, repo, deployment_id: id } = request.params;
    const s = await deployments.createDeploymentStatus(request.server.ctx, request.actor, owner, repo, id, request.body);
    const view = await presentDeploymentStatus(request.server.ctx, s);
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/deployments/:deployment_id/statuses/:status_id', {
    schema: { params: StatusParams, response: { 200: DeploymentStatus } },
    config: { operationId: 'repos/get-deployment-status', acceptedScopes: SCOPES },
  }, async (request) => {
    const { owner, repo, deployment_id: id, status_id: statusId } = request.params;
    return presentDeploymentStatus(request.server.ctx, await deployments.getDeploymentStatus(request.server.ctx, request.actor, owner, repo, id, statusId));
  });
}
