// /user/emails, /user/email/visibility, /user/public_emails, /user/gpg_keys,
// /users/{username}/gpg_keys, and the site-admin address verification.
import { Type } from '@sinclair/typebox';
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { UsernameParams } from '../users/users.schemas.ts';
import {
  CreateGpgKeyBody, Email, EmailList, emailsArrayBody, EmailsBody, EmailVisibilityBody, GpgKey, GpgKeyList, GpgKeyParams, ListKeysQuery,
  SetEmailVerifiedBody,
} from './verification.schemas.ts';
import * as emails from './verification.emails.ts';
import * as keys from './verification.keys.ts';
import { email, gpgKey } from './verification.views.ts';

const EMAIL_READ_SCOPES = ['user', 'read:user', 'user:email'];
const GPG_READ_SCOPES = ['admin:gpg_key', 'read:gpg_key', 'write:gpg_key'];

export function verificationRoutes(app: Router): void {
  app.get('/user/emails', {
    schema: { querystring: ListKeysQuery, response: { 200: EmailList } },
    config: { operationId: 'users/list-emails-for-authenticated-user', acceptedScopes: EMAIL_READ_SCOPES },
  }, async (request) => {
    const p = pageOf(request.query);
    const list = await emails.listEmails(request.server.ctx, request.actor);
    return paged(list.slice(p.offset, p.offset + p.perPage).map(email), p, list.length);
  });

  app.get('/user/public_emails', {
    schema: { querystring: ListKeysQuery, response: { 200: EmailList } },
    config: { operationId: 'users/list-public-emails-for-authenticated-user', acceptedScopes: EMAIL_READ_SCOPES },
  }, async (request) => {
    const p = pageOf(request.query);
    const list = await emails.listPublicEmails(request.server.ctx, request.actor);
    return paged(list.slice(p.offset, p.offset + p.perPage).map(email), p, list.length);
  });

  app.post('/user/emails', {
    schema: { body: EmailsBody, response: { 201: Type.Array(Email) } },
    config: { operationId: 'users/add-email-for-authenticated-user', resource: 'UserEmail', acceptedScopes: ['user'], allowJsonArray: true },
    preValidation: emailsArrayBody,
  }, async (request, reply) => {
    const added = await emails.addEmails(request.server.ctx, request.actor, request.body.emails);
    return reply.code(201).send(added.map(email));
  });

  app.delete('/user/emails', {
    schema: { body: EmailsBody, response: { 204: Type.Null() } },
    config: { operationId: 'users/delete-email-for-authenticated-user', resource: 'UserEmail', acceptedScopes: ['user'], allowJsonArray: true },
    preValidation: emailsArrayBody,
  }, async (request, reply) => {
    await emails.deleteEmails(request.server.ctx, request.actor, request.body.emails);
    return reply.code(204).send(null);
  });

  app.patch('/user/email/visibility', {
    schema: { body: EmailVisibilityBody, response: { 200: Type.Array(Email) } },
    config: { operationId: 'users/set-primary-email-visibility-for-authenticated-user', resource: 'User', acceptedScopes: ['user'] },
  }, async (request) => {
    const list = await emails.setPrimaryEmailVisibility(request.server.ctx, request.actor, request.body.visibility);
    return list.map(email);
  });

  // Wharf extension (no upstream operation): with no outgoing mail to confirm an
  // address, a site admin marks a user's address verified (or not). Body
  // {email, verified}; answers the address. Addresses given when a site admin creates
  // the user (POST /admin/users) are verified from the start.
  app.patch('/admin/users/:username/emails', {
    schema: { params: UsernameParams, body: SetEmailVerifiedBody, response: { 200: Email } },
    config: { operationId: 'wharf/set-user-email-verified', resource: 'UserEmail', acceptedScopes: ['site_admin'] },
  }, async (request) => {
    const e = await emails.setEmailVerified(
      request.server.ctx, request.actor, request.params.username, request.body.email, request.body.verified,
    );
    return email(e);
  });

  app.get('/user/gpg_keys', {
    schema: { querystring: ListKeysQuery, response: { 200: GpgKeyList } },
    config: { operationId: 'users/list-gpg-keys-for-authenticated-user', acceptedScopes: GPG_READ_SCOPES },
  }, async (request) => {
    const p = pageOf(request.query);
    const list = await keys.listOwnKeys(request.server.ctx, request.actor, p.perPage, p.offset);
    return paged(list.keys.map((k) => gpgKey(k, list.verifiedEmails)), p, list.total);
  });

  app.post('/user/gpg_keys', {
    schema: { body: CreateGpgKeyBody, response: { 201: GpgKey } },
    config: { operationId: 'users/create-gpg-key-for-authenticated-user', resource: 'GpgKey', acceptedScopes: ['admin:gpg_key', 'write:gpg_key'] },
  }, async (request, reply) => {
    const k = await keys.createKey(request.server.ctx, request.actor, request.body);
    return reply.code(201).send(gpgKey(k.key, k.verifiedEmails));
  });

  app.get('/user/gpg_keys/:gpg_key_id', {
    schema: { params: GpgKeyParams, response: { 200: GpgKey } },
    config: { operationId: 'users/get-gpg-key-for-authenticated-user', acceptedScopes: GPG_READ_SCOPES },
  }, async (request) => {
    const k = await keys.getOwnKey(request.server.ctx, request.actor, request.params.gpg_key_id);
    return gpgKey(k.key, k.verifiedEmails);
  });

  app.delete('/user/gpg_keys/:gpg_key_id', {
    schema: { params: GpgKeyParams, response: { 204: Type.Null() } },
    config: { operationId: 'users/delete-gpg-key-for-authenticated-user', acceptedScopes: ['admin:gpg_key'] },
  }, async (request, reply) => {
    await keys.deleteKey(request.server.ctx, request.actor, request.params.gpg_key_id);
    return reply.code(204).send(null);
  });

  app.get('/users/:username/gpg_keys', {
    schema: { params: UsernameParams, querystring: ListKeysQuery, response: { 200: GpgKeyList } },
    config: { operationId: 'users/list-gpg-keys-for-user' },
  }, async (request) => {
    const p = pageOf(request.query);
    const list = await keys.listUserKeys(request.server.ctx, request.params.username, p.perPage, p.offset);
    return paged(list.keys.map((k) => gpgKey(k, list.verifiedEmails)), p, list.total);
  });
}
