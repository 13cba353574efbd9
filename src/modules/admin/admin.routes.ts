// /admin/… and the site-admin user switches (/users/{username}/site_admin, /suspended).
import type { Router } from '../../http/router.ts';
import { OrganizationSimple } from '../orgs/orgs.schemas.ts';
import { organizationSimple } from '../orgs/orgs.views.ts';
import { SimpleUser, UsernameParams } from '../users/users.schemas.ts';
import { simpleUser } from '../users/users.views.ts';
import { Type } from '@sinclair/typebox';
import {
  Accepted, Authorization, CreateAuthorizationBody, CreateOrganizationBody, CreateUserBody, RenameBody, SuspendBody,
} from './admin.schemas.ts';
import * as admin from './admin.service.ts';
import { authorization } from './admin.views.ts';
import { SetPasswordBody } from '../web-session/web-session.schemas.ts';

const NO_CONTENT = { 204: Type.Null() };

export function adminRoutes(app: Router): void {
  const { urls } = app.ctx;
  const scopes = ['site_admin'];

  app.post('/admin/users', {
    schema: { body: CreateUserBody, response: { 201: SimpleUser } },
    config: { operationId: 'enterprise-admin/create-user', resource: 'User', acceptedScopes: scopes },
  }, async (request, reply) => {
    const user = await admin.createUser(request.server.ctx, request.actor, request.body);
    return reply.code(201).send(simpleUser(user, urls));
  });

  app.patch('/admin/users/:username', {
    schema: { params: UsernameParams, body: RenameBody, response: { 202: Accepted } },
    config: { operationId: 'enterprise-admin/update-username-for-user', resource: 'User', acceptedScopes: scopes },
  }, async (request, reply) => {
    const user = await admin.renameUser(request.server.ctx, request.actor, request.params.username, request.body.login);
    return reply.code(202).send({ message: 'Job queued to rename user. It may take a few minutes to complete.', url: urls.api('users', user.login) });
  });

  app.delete('/admin/users/:username', {
    schema: { params: UsernameParams, response: NO_CONTENT },
    config: { operationId: 'enterprise-admin/delete-user', acceptedScopes: scopes },
  }, async (request, reply) => {
    await admin.deleteUser(request.server.ctx, request.actor, request.params.username);
    return reply.code(204).send(null);
  });

  app.post('/admin/organizations', {
    schema: { body: CreateOrganizationBody, response: { 201: OrganizationSimple } },
    config: { operationId: 'enterprise-admin/create-org', resource: 'Organization', acceptedScopes: scopes },
  }, async (request, reply) => {
    const org = await admin.createOrganization(request.server.ctx, request.actor, request.body);
    return reply.code(201).send(organizationSimple(org.account, org.settings.description, urls));
  });

  app.patch('/admin/organizations/:org', {
    schema: { params: Type.Object({ org: Type.String() }), body: RenameBody, response: { 202: Accepted } },
    config: { operationId: 'enterprise-admin/update-org-name', resource: 'Organization', acceptedScopes: scopes },
  }, async (request, reply) => {
    const org = await admin.renameOrganization(request.server.ctx, request.actor, request.params.org, request.body.login);
    return reply.code(202).send({ message: 'Job queued to rename organization. It may take a few minutes to complete.', url: urls.api('orgs', org.login) });
  });

  app.put('/admin/users/:username/password', {
    schema: { params: UsernameParams, body: SetPasswordBody, response: NO_CONTENT },
    config: { operationId: 'wharf/set-user-password', resource: 'User', acceptedScopes: scopes },
  }, async (request, reply) => {
    await admin.setUserPassword(request.server.ctx, request.actor, request.params.username, request.body.password);
    return reply.code(204).send(null);
  });

  app.post('/admin/users/:username/authorizations', {
    schema: { params: UsernameParams, body: CreateAuthorizationBody, response: { 201: Authorization } },
    config: { operationId: 'enterprise-admin/create-impersonation-o-auth-token', resource: 'OauthAccess', acceptedScopes: scopes },
  }, async (request, reply) => {
    const t = await admin.createImpersonationToken(
      request.server.ctx, request.actor, request.params.username, request.body?.scopes ?? [],
    );
    return reply.code(201).send(authorization(t, urls));
  });

  app.delete('/admin/users/:username/authorizations', {
    schema: { params: UsernameParams, response: NO_CONTENT },
    config: { operationId: 'enterprise-admin/delete-impersonation-o-auth-token', acceptedScopes: scopes },
  }, async (request, reply) => {
    await admin.deleteImpersonationTokens(request.server.ctx, request.actor, request.params.username);
    return reply.code(204).send(null);
  });

  for (const [method, on] of [['PUT', true], ['DELETE', false]] as const) {
    app.route({
      method, url: '/users/:username/site_admin',
      schema: { params: UsernameParams, response: NO_CONTENT },
      config: { operationId: on ? 'enterprise-admin/promote-user-to-be-site-administrator' : 'enterprise-admin/demote-site-administrator', acceptedScopes: scopes },
      handler: async (request, reply) => {
        await admin.setSiteAdmin(request.server.ctx, request.actor, request.params.username, on);
        return reply.code(204).send(null);
      },
    });
    app.route({
      method, url: '/users/:username/suspended',
      schema: { params: UsernameParams, ...(on ? { body: SuspendBody } : {}), response: NO_CONTENT },
      config: { operationId: on ? 'enterprise-admin/suspend-user' : 'enterprise-admin/unsuspend-user', acceptedScopes: scopes },
      handler: async (request, reply) => {
        const reason = on ? (request.body as { reason?: string } | undefined)?.reason : undefined;
        await admin.setSuspended(request.server.ctx, request.actor, request.params.username, on, reason);
        return reply.code(204).send(null);
      },
    });
  }
}
