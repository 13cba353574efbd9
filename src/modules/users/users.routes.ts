// /user, /users, /users/{username}, avatars.
import { Type } from '@sinclair/typebox';
import { pagedBySince, pageOf } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { identiconSvg } from './avatar.ts';
import { AuthenticatedUser, ListUsersQuery, PublicUser, SimpleUser, UpdateUserBody, UsernameParams } from './users.schemas.ts';
import * as users from './users.service.ts';
import { privateUser, publicUser, simpleUser } from './users.views.ts';
import { PagedArray } from '../../http/schema-types.ts';

export function usersRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.get('/user', {
    schema: { response: { 200: AuthenticatedUser } },
    config: { operationId: 'users/get-authenticated', answerCache: true },
  }, async (request) => {
    const p = await users.getAuthenticatedProfile(request.server.ctx, request.actor);
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
    schema: { querystring: ListUsersQuery, response: { 200: PagedArray(SimpleUser) } },
    config: { operationId: 'users/list' },
  }, async (request) => {
    const { perPage } = pageOf(request.query);
    const list = await users.listAccounts(request.server.ctx, request.query.since ?? 0, perPage);
    const nextSince = list.length === perPage ? list[list.length - 1]!.id : null;
    return pagedBySince(list.map((a) => simpleUser(a, urls)), nextSince, perPage);
  });

  app.get('/users/:username', {
    schema: { params: UsernameParams, response: { 200: PublicUser } },
    config: { operationId: 'users/get-by-username', answerCache: true },
  }, async (request) => {
    const p = await users.getProfile(request.server.ctx, request.params.username);
    return publicUser(p.account, p.counts, urls);
  });

  app.get('/avatars/u/:id', {
    schema: { params: Type.Object({ id: Type.Integer() }) },
    // An SVG image: bytes, not JSON.
    config: { operationId: 'wharf/avatar', rateLimit: 'none', rawResponse: true },
  }, async (request, reply) => {
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400');
    return identiconSvg(request.params.id);
  });
}
