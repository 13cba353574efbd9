// Webhooks of repositories and organizations: configuration, ping, test, deliveries.
import type { Router } from '../../http/router.ts';
import { paged, pagedByCursor, pageOf } from '../../http/pagination.ts';
import * as deliveries from './deliveries.service.ts';
import { delivery, deliveryItem } from './deliveries.views.ts';
import { Accepted, CreateHookBody, DeliveryList, DeliveryResponse, HookList, HookResponse, ListDeliveriesQuery, OrgDeliveryParams, OrgHookParams, OrgParams, RepoDeliveryParams, RepoHookParams, RepoParams, UpdateHookBody } from './hooks.schemas.ts';
import * as hooks from './hooks.service.ts';
import { SCOPES } from './hooks.service.ts';
import { hook } from './hooks.views.ts';
import { NoContent } from '../../http/schema-types.ts';

const RESOURCE = 'Hook';
const READ = [...SCOPES.repositoryRead];
const WRITE = [...SCOPES.repositoryWrite];
const ORG = [...SCOPES.organization];

export function hooksRoutes(app: Router): void {
  // Repositories

  app.get('/repos/:owner/:repo/hooks', {
    schema: { params: RepoParams, response: { 200: HookList } },
    config: { operationId: 'repos/list-webhooks', acceptedScopes: READ },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await hooks.listRepositoryHooks(request.server.ctx, request.actor, owner, repo, p);
    return paged(page.items.map((h) => hook(h, request.server.ctx.urls)), p, page.total);
  });

  app.post('/repos/:owner/:repo/hooks', {
    schema: { params: RepoParams, body: CreateHookBody, response: { 201: HookResponse } },
    config: { operationId: 'repos/create-webhook', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const h = await hooks.createRepositoryHook(request.server.ctx, request.actor, owner, repo, request.body ?? {});
    const view = hook(h, request.server.ctx.urls);
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/repos/:owner/:repo/hooks/:hook_id', {
    schema: { params: RepoHookParams, response: { 200: HookResponse } },
    config: { operationId: 'repos/get-webhook', acceptedScopes: READ },
  }, async (request) => {
    const { owner, repo, hook_id: id } = request.params;
    return hook(await hooks.getRepositoryHook(request.server.ctx, request.actor, owner, repo, id), request.server.ctx.urls);
  });

  app.patch('/repos/:owner/:repo/hooks/:hook_id', {
    schema: { params: RepoHookParams, body: UpdateHookBody, response: { 200: HookResponse } },
    config: { operationId: 'repos/update-webhook', resource: RESOURCE, acceptedScopes: WRITE },
  }, async (request) => {
    const { owner, repo, hook_id: id } = request.params;
    const h = await hooks.updateRepositoryHook(request.server.ctx, request.actor, owner, repo, id, request.body ?? {});
    return hook(h, request.server.ctx.urls);
  });

  app.delete('/repos/:owner/:repo/hooks/:hook_id', {
    schema: { params: RepoHookParams, response: { 204: NoContent } },
    config: { operationId: 'repos/delete-webhook', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, hook_id: id } = request.params;
    await hooks.deleteRepositoryHook(request.server.ctx, request.actor, owner, repo, id);
    return reply.code(204).send();
  });

  app.post('/repos/:owner/:repo/hooks/:hook_id/pings', {
    schema: { params: RepoHookParams, response: { 204: NoContent } },
    config: { operationId: 'repos/ping-webhook', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, hook_id: id } = request.params;
    await hooks.pingRepositoryHook(request.server.ctx, request.actor, owner, repo, id);
    return reply.code(204).send();
  });

  app.post('/repos/:owner/:repo/hooks/:hook_id/tests', {
    schema: { params: RepoHookParams, response: { 204: NoContent } },
    config: { operationId: 'repos/test-push-webhook', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, hook_id: id } = request.params;
    await hooks.testRepositoryHook(request.server.ctx, request.actor, owner, repo, id);
    return reply.code(204).send();
  });

  app.get('/repos/:owner/:repo/hooks/:hook_id/deliveries', {
    schema: { params: RepoHookParams, querystring: ListDeliveriesQuery, response: { 200: DeliveryList } },
    config: { operationId: 'repos/list-webhook-deliveries', acceptedScopes: READ },
  }, async (request) => {
    const { owner, repo, hook_id: id } = request.params;
    const { perPage } = pageOf(request.query);
    const page = await deliveries.listRepositoryHookDeliveries(request.server.ctx, request.actor, owner, repo, id, {
      perPage, cursor: request.query.cursor, status: request.query.status,
    });
    return pagedByCursor(page.items.map(deliveryItem), page.next, perPage);
  });

  app.get('/repos/:owner/:repo/hooks/:hook_id/deliveries/:delivery_id', {
    schema: { params: RepoDeliveryParams, response: { 200: DeliveryResponse } },
    config: { operationId: 'repos/get-webhook-delivery', acceptedScopes: READ },
  }, async (request) => {
    const { owner, repo, hook_id: id, delivery_id: deliveryId } = request.params;
    return delivery(await deliveries.getRepositoryHookDelivery(request.server.ctx, request.actor, owner, repo, id, deliveryId));
  });

  app.post('/repos/:owner/:repo/hooks/:hook_id/deliveries/:delivery_id/attempts', {
    schema: { params: RepoDeliveryParams, response: { 202: Accepted } },
    config: { operationId: 'repos/redeliver-webhook-delivery', acceptedScopes: WRITE },
  }, async (request, reply) => {
    const { owner, repo, hook_id: id, delivery_id: deliveryId } = request.params;
    await deliveries.redeliverRepositoryHookDelivery(request.server.ctx, request.actor, owner, repo, id, deliveryId);
    return reply.code(202).send({});
  });

  // Organizations

  app.get('/orgs/:org/hooks', {
    schema: { params: OrgParams, response: { 200: HookList } },
    config: { operationId: 'orgs/list-webhooks', acceptedScopes: ORG },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await hooks.listOrganizationHooks(request.server.ctx, request.actor, request.params.org, p);
    return paged(page.items.map((h) => hook(h, request.server.ctx.urls)), p, page.total);
  });

  app.post('/orgs/:org/hooks', {
    schema: { params: OrgParams, body: CreateHookBody, response: { 201: HookResponse } },
    config: { operationId: 'orgs/create-webhook', resource: RESOURCE, acceptedScopes: ORG },
  }, async (request, reply) => {
    const h = await hooks.createOrganizationHook(request.server.ctx, request.actor, request.params.org, request.body ?? {});
    const view = hook(h, request.server.ctx.urls);
    return reply.code(201).header('location', view.url).send(view);
  });

  app.get('/orgs/:org/hooks/:hook_id', {
    schema: { params: OrgHookParams, response: { 200: HookResponse } },
    config: { operationId: 'orgs/get-webhook', acceptedScopes: ORG },
  }, async (request) => {
    const { org, hook_id: id } = request.params;
    return hook(await hooks.getOrganizationHook(request.server.ctx, request.actor, org, id), request.server.ctx.urls);
  });

  app.patch('/orgs/:org/hooks/:hook_id', {
    schema: { params: OrgHookParams, body: UpdateHookBody, response: { 200: HookResponse } },
    config: { operationId: 'orgs/update-webhook', resource: RESOURCE, acceptedScopes: ORG },
  }, async (request) => {
    const { org, hook_id: id } = request.params;
    return hook(await hooks.updateOrganizationHook(request.server.ctx, request.actor, org, id, request.body ?? {}), request.server.ctx.urls);
  });

  app.delete('/orgs/:org/hooks/:hook_id', {
    schema: { params: OrgHookParams, response: { 204: NoContent } },
    config: { operationId: 'orgs/delete-webhook', acceptedScopes: ORG },
  }, async (request, reply) => {
    const { org, hook_id: id } = request.params;
    await hooks.deleteOrganizationHook(request.server.ctx, request.actor, org, id);
    return reply.code(204).send();
  });

  app.post('/orgs/:org/hooks/:hook_id/pings', {
    schema: { params: OrgHookParams, response: { 204: NoContent } },
    config: { operationId: 'orgs/ping-webhook', acceptedScopes: ORG },
  }, async (request, reply) => {
    const { org, hook_id: id } = request.params;
    await hooks.pingOrganizationHook(request.server.ctx, request.actor, org, id);
    return reply.code(204).send();
  });

  app.get('/orgs/:org/hooks/:hook_id/deliveries', {
    schema: { params: OrgHookParams, querystring: ListDeliveriesQuery, response: { 200: DeliveryList } },
    config: { operationId: 'orgs/list-webhook-deliveries', acceptedScopes: ORG },
  }, async (request) => {
    const { org, hook_id: id } = request.params;
    const { perPage } = pageOf(request.query);
    const page = await deliveries.listOrganizationHookDeliveries(request.server.ctx, request.actor, org, id, {
      perPage, cursor: request.query.cursor, status: request.query.status,
    });
    return pagedByCursor(page.items.map(deliveryItem), page.next, perPage);
  });

  app.get('/orgs/:org/hooks/:hook_id/deliveries/:delivery_id', {
    schema: { params: OrgDeliveryParams, response: { 200: DeliveryResponse } },
    config: { operationId: 'orgs/get-webhook-delivery', acceptedScopes: ORG },
  }, async (request) => {
    const { org, hook_id: id, delivery_id: deliveryId } = request.params;
    return delivery(await deliveries.getOrganizationHookDelivery(request.server.ctx, request.actor, org, id, deliveryId));
  });

  app.post('/orgs/:org/hooks/:hook_id/deliveries/:delivery_id/attempts', {
    schema: { params: OrgDeliveryParams, response: { 202: Accepted } },
    config: { operationId: 'orgs/redeliver-webhook-delivery', acceptedScopes: ORG },
  }, async (request, reply) => {
    const { org, hook_id: id, delivery_id: deliveryId } = request.params;
    await deliveries.redeliverOrganizationHookDelivery(request.server.ctx, request.actor, org, id, deliveryId);
    return reply.code(202).send({});
  });
}
