// /user/keys, /users/{username}/keys, /{user}.keys and the deploy keys /repos/{o}/{r}/keys.
import { Type } from '@sinclair/typebox';
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import {
  CreateDeployKeyBody, CreateKeyBody, DeployKey, DeployKeyList, KeyIdParams, ListKeysQuery, OwnKey, OwnKeyList,
  RepoKeyParams, RepoParams, SimpleKeyList, UserKeysFileParams, UsernameParams,
} from './keys.schemas.ts';
import * as keys from './keys.service.ts';
import { authorizedKeys, deployKey, ownKey, simpleKey } from './keys.views.ts';

const READ_SCOPES = ['admin:public_key', 'read:public_key', 'write:public_key'];
const NO_CONTENT = { 204: Type.Null() };

export function keysRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.get('/user/keys', {
    schema: { querystring: ListKeysQuery, response: { 200: OwnKeyList } },
    config: { operationId: 'users/list-public-ssh-keys-for-authenticated-user', acceptedScopes: READ_SCOPES },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await keys.listOwnKeys(request.server.ctx, request.actor, p.perPage, p.offset);
    return paged(page.keys.map((k) => ownKey(urls, k)), p, page.total);
  });

  app.post('/user/keys', {
    schema: { body: CreateKeyBody, response: { 201: OwnKey } },
    config: { operationId: 'users/create-public-ssh-key-for-authenticated-user', resource: 'PublicKey', acceptedScopes: ['admin:public_key', 'write:public_key'] },
  }, async (request, reply) => {
    const k = await keys.createOwnKey(request.server.ctx, request.actor, request.body);
    return reply.code(201).send(ownKey(urls, k));
  });

  app.get('/user/keys/:key_id', {
    schema: { params: KeyIdParams, response: { 200: OwnKey } },
    config: { operationId: 'users/get-public-ssh-key-for-authenticated-user', acceptedScopes: READ_SCOPES },
  }, async (request) => ownKey(urls, await keys.getOwnKey(request.server.ctx, request.actor, request.params.key_id)));

  app.delete('/user/keys/:key_id', {
    schema: { params: KeyIdParams, response: NO_CONTENT },
    config: { operationId: 'users/delete-public-ssh-key-for-authenticated-user', acceptedScopes: ['admin:public_key'] },
  }, async (request, reply) => {
    await keys.deleteOwnKey(request.server.ctx, request.actor, request.params.key_id);
    return reply.code(204).send(null);
  });

  app.get('/users/:username/keys', {
    schema: { params: UsernameParams, querystring: ListKeysQuery, response: { 200: SimpleKeyList } },
    config: { operationId: 'users/list-public-keys-for-user' },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await keys.listUserKeys(request.server.ctx, request.params.username, p.perPage, p.offset);
    return paged(page.keys.map(simpleKey), p, page.total);
  });

  // The web host's authorized_keys file of a user (what `curl …/alice.keys >> authorized_keys` expects).
  app.get('/:user.keys', {
    schema: { params: UserKeysFileParams },
    config: { operationId: 'wharf/user-authorized-keys', rawResponse: true },
  }, async (request, reply) => {
    const list = await keys.allUserKeys(request.server.ctx, request.params.user);
    if (list === null) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found\n');
    return reply.type('text/plain; charset=utf-8').send(authorizedKeys(list));
  });

  app.get('/repos/:owner/:repo/keys', {
    schema: { params: RepoParams, querystring: ListKeysQuery, response: { 200: DeployKeyList } },
    config: { operationId: 'repos/list-deploy-keys', acceptedScopes: ['repo'] },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await keys.listDeployKeys(request.server.ctx, request.actor, owner, repo, p.perPage, p.offset);
    return paged(page.keys.map((k) => deployKey(urls, page.repo, k, page.addedBy)), p, page.total);
  });

  app.post('/repos/:owner/:repo/keys', {
    schema: { params: RepoParams, body: CreateDeployKeyBody, response: { 201: DeployKey } },
    config: { operationId: 'repos/create-deploy-key', resource: 'PublicKey', acceptedScopes: ['repo'] },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const d = await keys.createDeployKey(request.server.ctx, request.actor, owner, repo, request.body);
    return reply.code(201).send(deployKey(urls, d.repo, d.key, d.addedBy));
  });

  app.get('/repos/:owner/:repo/keys/:key_id', {
    schema: { params: RepoKeyParams, response: { 200: DeployKey } },
    config: { operationId: 'repos/get-deploy-key', acceptedScopes: ['repo'] },
  }, async (request) => {
    const { owner, repo, key_id } = request.params;
    const d = await keys.getDeployKey(request.server.ctx, request.actor, owner, repo, key_id);
    return deployKey(urls, d.repo, d.key, d.addedBy);
  });

  app.delete('/repos/:owner/:repo/keys/:key_id', {
    schema: { params: RepoKeyParams, response: NO_CONTENT },
    config: { operationId: 'repos/delete-deploy-key', acceptedScopes: ['repo'] },
  }, async (request, reply) => {
    const { owner, repo, key_id } = request.params;
    await keys.deleteDeployKey(request.server.ctx, request.actor, owner, repo, key_id);
    return reply.code(204).send(null);
  });
}
