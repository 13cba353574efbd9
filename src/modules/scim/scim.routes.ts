// SCIM 2.0 at /scim/v2/organizations/{org}/Users (upstream's paths; the segment is
// case sensitive). Answers are application/scim+json; failures SCIM error bodies
// (route config `scim`); ETag and 304 come from the conventions, as everywhere.
import type { FastifyReply } from 'fastify';
import { BadRequestError } from '../../domain/errors.ts';
import { SCIM_MEDIA_TYPE } from '../../http/errors.ts';
import type { Router } from '../../http/router.ts';
import { NoContent } from '../../http/schema-types.ts';
import { ListQuery, OrgParams, PatchBody, ScimUser, ScimUserList, UserBody, UserParams } from './scim.schemas.ts';
import * as scim from './scim.service.ts';
import type { ScimUser as ScimUserRecord } from './scim.model.ts';
import { scimUser, scimUserList, userDataOf } from './scim.views.ts';

const BASE = '/scim/v2/organizations/:org/Users';
const CONFIG = { scim: true, acceptedScopes: ['admin:org'], appPermission: 'none' as const, resource: 'User' };

export function scimRoutes(app: Router): void {
  const { urls } = app.ctx;
  const present = (reply: FastifyReply, org: string, u: ScimUserRecord) => {
    reply.type(SCIM_MEDIA_TYPE);
    reply.lastModified = u.updatedAt;
    return scimUser(urls, org, u);
  };

  app.get(BASE, {
    schema: { params: OrgParams, querystring: ListQuery, response: { 200: ScimUserList } },
    config: { ...CONFIG, operationId: 'scim/list-provisioned-identities' },
  }, async (request, reply) => {
    const list = await scim.listUsers(request.server.ctx, request.actor, request.params.org, request.query);
    reply.type(SCIM_MEDIA_TYPE);
    return scimUserList(urls, request.params.org, list.users, list.total, list.startIndex);
  });

  app.post(BASE, {
    schema: { params: OrgParams, body: UserBody, response: { 201: ScimUser } },
    config: { ...CONFIG, operationId: 'scim/provision-and-invite-user' },
  }, async (request, reply) => {
    const u = await scim.createUser(request.server.ctx, request.actor, request.params.org, userDataOf(request.body));
    return reply.code(201).header('location', urls.api('scim', 'v2', 'organizations', request.params.org, 'Users', u.id))
      .send(present(reply, request.params.org, u));
  });

  app.get(`${BASE}/:scim_user_id`, {
    schema: { params: UserParams, response: { 200: ScimUser } },
    config: { ...CONFIG, operationId: 'scim/get-provisioning-information-for-user' },
  }, async (request, reply) => present(reply, request.params.org,
    await scim.getUser(request.server.ctx, request.actor, request.params.org, request.params.scim_user_id)));

  app.put(`${BASE}/:scim_user_id`, {
    schema: { params: UserParams, body: UserBody, response: { 200: ScimUser } },
    config: { ...CONFIG, operationId: 'scim/set-information-for-provisioned-user' },
  }, async (request, reply) => present(reply, request.params.org,
    await scim.replaceUser(request.server.ctx, request.actor, request.params.org, request.params.scim_user_id, userDataOf(request.body))));

  app.patch(`${BASE}/:scim_user_id`, {
    schema: { params: UserParams, body: PatchBody, response: { 200: ScimUser } },
    config: { ...CONFIG, operationId: 'scim/update-attribute-for-user' },
  }, async (request, reply) => {
    const operations = request.body.Operations ?? request.body.operations;
    if (!operations) throw new BadRequestError('The body must hold Operations', 'invalidSyntax');
    return present(reply, request.params.org,
      await scim.patchUser(request.server.ctx, request.actor, request.params.org, request.params.scim_user_id, operations));
  });

  app.delete(`${BASE}/:scim_user_id`, {
    schema: { params: UserParams, response: { 204: NoContent } },
    config: { ...CONFIG, operationId: 'scim/delete-user-from-org' },
  }, async (request, reply) => {
    await scim.deleteUser(request.server.ctx, request.actor, request.params.org, request.params.scim_user_id);
    return reply.code(204).send(null);
  });
}
