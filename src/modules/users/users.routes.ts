// /user, /users, /users/{username}, avatars.
import { Type } from '@sinclair/typebox';
import { pageOf, setSinceLink } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { identiconSvg } from './avatar.ts';
import {
  AuthenticatedUser, ListUsersQuery, PublicUser, SimpleUser, UpdateUserBody, UsernameParams,
} from './users.schemas.ts';
import * as users from './users.service.ts';
import { privateUser, publicUser, simpleUser } from './users.views.ts';

export function usersRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.get('/user', {
    schema: { response: { 200: AuthenticatedUser } },
    config: { operationId: 'users/get-authenticated' },
  }, async (request, reply) => {
    const p = await users.getAuthenticatedProfile(request.server.ctx, request.actor);
    reply.lastModified = p.account.updatedAt;
    return p.includePrivate ? privateUser(p.account, p.counts, urls) : publicUser(p.account, p.counts, urls);
  });

  app.patch('/user', {
    schema: { body: UpdateUserBody, response: { 200: AuthenticatedUser } },
    config: { operationId: 'users/update-authenticated', resource: 'User', acceptedScopes: ['user'] },
  }, async (request) => {
    const p = await users.updateAuthenticatedProfile(request.server.ctx, request.actor, request.body ?? {});
    return privateUser(p.account, p.counts, urls);
  });

  app.get('/users', {
    schema: { querystring: ListUsersQuery, response: { 200: Type.Array(SimpleUser) } },
    config: { operationId: 'users/list' },
  }, async (request, reply) => {
    const { perPage } = pageOf(request.query);
    const list = await users.listAccounts(request.server.ctx, request.query.since ?? 0, perPage);
    setSinceLink(request, reply, list.length === perPage ? list[list.length - 1]!.id : null, perPage);
    return list.map((a) => simpleUser(a, urls));
  });

  app.get('/users/:username', {
    schema: { params: UsernameParams, response: { 200: PublicUser } },
    config: { operationId: 'users/get-by-username' },
  }, async (request, reply) => {
    const p = await users.getProfile(request.server.ctx, request.params.username);
    reply.lastModified = p.account.updatedAt;
    return publicUser(p.account, p.counts, urls);
  });

  app.get('/avatars/u/:id', {
    schema: { params: Type.Object({ id: Type.Integer() }) },
    config: { operationId: 'wharf/avatar', rateLimit: 'none' },
  }, async (request, reply) => {
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400');
    return identiconSvg(request.params.id);
  });
}
