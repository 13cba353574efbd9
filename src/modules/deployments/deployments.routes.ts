// Deployments and deployment statuses of a repository.
import { pageOf, setPageLinks } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import {
  CreateDeploymentBody, CreateStatusBody, Deployment, DeploymentList, DeploymentParams, DeploymentStatus,
  DeploymentStatusList, ListDeploymentsQuery, MergedResponse, PageQuery, RepoParams, StatusParams,
} from './deployments.schemas.ts';
import * as deployments from './deployments.service.ts';
import { deployment, deploymentStatus } from './deployments.views.ts';

const SCOPES = ['repo_deployment', 'repo'];

export function deploymentsRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.get('/repos/:owner/:repo/deployments', {
    schema: { params: RepoParams, querystring: ListDeploymentsQuery, response: { 200: DeploymentList } },
    config: { operationId: 'repos/list-deployments', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await deployments.listDeployments(request.server.ctx, request.actor, owner, repo, request.query, p);
    setPageLinks(request, reply, p, page.total);
    return page.items.map((d) => deployment(urls, d));
  });

  app.post('/repos/:owner/:repo/deployments', {
    schema: { params: RepoParams, body: CreateDeploymentBody, response: { 201: Deployment, 202: MergedResponse } },
    config: { operationId: 'repos/create-deployment', resource: 'Deployment', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const result = await deployments.createDeployment(request.server.ctx, request.actor, owner, repo, request.body);
    // Upstream answers an auto-merge with the merge, not a deployment: the client asks again.
    if (!result.created) return reply.code(202).send({ message: result.message });
    const view = deployment(urls, result.detail);
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/deployments/:deployment_id', {
    schema: { params: DeploymentParams, response: { 200: Deployment } },
    config: { operationId: 'repos/get-deployment', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const { owner, repo, deployment_id: id } = request.params;
    const d = await deployments.getDeployment(request.server.ctx, request.actor, owner, repo, id);
    reply.lastModified = d.deployment.updatedAt;
    return deployment(urls, d);
  });

  app.delete('/repos/:owner/:repo/deployments/:deployment_id', {
    schema: { params: DeploymentParams },
    config: { operationId: 'repos/delete-deployment', resource: 'Deployment', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const { owner, repo, deployment_id: id } = request.params;
    await deployments.deleteDeployment(request.server.ctx, request.actor, owner, repo, id);
    return reply.code(204).send();
  });

  app.get('/repos/:owner/:repo/deployments/:deployment_id/statuses', {
    schema: { params: DeploymentParams, querystring: PageQuery, response: { 200: DeploymentStatusList } },
    config: { operationId: 'repos/list-deployment-statuses', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const { owner, repo, deployment_id: id } = request.params;
    const p = pageOf(request.query);
    const page = await deployments.listDeploymentStatuses(request.server.ctx, request.actor, owner, repo, id, p);
    setPageLinks(request, reply, p, page.total);
    return page.items.map((s) => deploymentStatus(urls, s));
  });

  app.post('/repos/:owner/:repo/deployments/:deployment_id/statuses', {
    schema: { params: DeploymentParams, body: CreateStatusBody, response: { 201: DeploymentStatus } },
    config: { operationId: 'repos/create-deployment-status', resource: 'DeploymentStatus', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const { owner, repo, deployment_id: id } = request.params;
    const s = await deployments.createDeploymentStatus(request.server.ctx, request.actor, owner, repo, id, request.body);
    const view = deploymentStatus(urls, s);
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/deployments/:deployment_id/statuses/:status_id', {
    schema: { params: StatusParams, response: { 200: DeploymentStatus } },
    config: { operationId: 'repos/get-deployment-status', acceptedScopes: SCOPES },
  }, async (request) => {
    const { owner, repo, deployment_id: id, status_id: statusId } = request.params;
    return deploymentStatus(urls, await deployments.getDeploymentStatus(request.server.ctx, request.actor, owner, repo, id, statusId));
  });
}
