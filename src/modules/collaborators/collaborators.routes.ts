// Repository collaborators, repository invitations (both sides) and organization
// custom repository roles.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { paged, pageOf } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { presentRepo } from '../repos/repos.present.ts';
import { RepoParams } from '../repos/repos.schemas.ts';
import {
  AddCollaboratorBody, Collaborator, CreateCustomRoleBody, CustomRole, CustomRoleList, InvitationParams, ListCollaboratorsQuery,
  OrgParams, OrgRoleParams, PageQuery, PermissionLevel, RepoInvitationParams, RepositoryInvitation, RepoUserParams, UpdateCustomRoleBody, UpdateInvitationBody,
} from './collaborators.schemas.ts';
import * as collaborators from './collaborators.service.ts';
import { collaborator, customRole, customRoleList, invitation, permissionLevel } from './collaborators.views.ts';
import * as roles from './custom-roles.service.ts';
import { PagedArray } from '../../http/schema-types.ts';

const NO_CONTENT = { 204: Type.Null() };
const REPO_SCOPES = ['repo'];
const INVITE_SCOPES = ['repo', 'repo:invite'];

function presentInvitation(request: FastifyRequest, d: collaborators.InvitationDetail) {
  return invitation(d, presentRepo(request, d.repo), request.server.ctx.urls);
}

export function collaboratorsRoutes(app: Router): void {
  const { urls } = app.ctx;

  // Collaborators

  app.get('/repos/:owner/:repo/collaborators', {
    schema: { params: RepoParams, querystring: ListCollaboratorsQuery, response: { 200: PagedArray(Collaborator) } },
    config: { operationId: 'repos/list-collaborators', acceptedScopes: REPO_SCOPES },
  }, async (request) => {
    const p = pageOf(request.query);
    const { owner, repo } = request.params;
    const { affiliation, permission } = request.query;
    const r = await collaborators.listCollaborators(request.server.ctx, request.actor, owner, repo, { affiliation, permission }, p);
    return paged(r.items.map((e) => collaborator(e.user, e.grant.role, e.grant.roleName, urls)), p, r.total);
  });

  app.get('/repos/:owner/:repo/collaborators/:username', {
    schema: { params: RepoUserParams, response: NO_CONTENT },
    config: { operationId: 'repos/check-collaborator', acceptedScopes: REPO_SCOPES },
  }, async (request, reply) => {
    const { owner, repo, username } = request.params;
    await collaborators.checkCollaborator(request.server.ctx, request.actor, owner, repo, username);
    return reply.code(204).send(null);
  });

  app.put('/repos/:owner/:repo/collaborators/:username', {
    schema: { params: RepoUserParams, body: AddCollaboratorBody, response: { 201: RepositoryInvitation, 204: Type.Null() } },
    config: { operationId: 'repos/add-collaborator', resource: 'Repository', acceptedScopes: REPO_SCOPES },
  }, async (request, reply) => {
    const { owner, repo, username } = request.params;
    const body = request.body ?? {};
    const r = await collaborators.addCollaborator(request.server.ctx, request.actor, owner, repo, username, body.permission ?? body.permissions);
    if (r.kind !== 'invited') return reply.code(204).send(null);
    return reply.code(201).send(presentInvitation(request, r.invitation));
  });

  app.delete('/repos/:owner/:repo/collaborators/:username', {
    schema: { params: RepoUserParams, response: NO_CONTENT },
    config: { operationId: 'repos/remove-collaborator', acceptedScopes: REPO_SCOPES },
  }, async (request, reply) => {
    const { owner, repo, username } = request.params;
    await collaborators.removeCollaborator(request.server.ctx, request.actor, owner, repo, username);
    return reply.code(204).send(null);
  });

  app.get('/repos/:owner/:repo/collaborators/:username/permission', {
    schema: { params: RepoUserParams, response: { 200: PermissionLevel } },
    config: { operationId: 'repos/get-collaborator-permission-level', acceptedScopes: REPO_SCOPES },
  }, async (request) => {
    const { owner, repo, username } = request.params;
    const r = await collaborators.getPermissionLevel(request.server.ctx, request.actor, owner, repo, username);
    return permissionLevel(r.user, r.role, r.roleName, urls);
  });

  // Invitations: the repository's side

  app.get('/repos/:owner/:repo/invitations', {
    schema: { params: RepoParams, querystring: PageQuery, response: { 200: PagedArray(RepositoryInvitation) } },
    config: { operationId: 'repos/list-invitations', acceptedScopes: REPO_SCOPES },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await collaborators.listInvitations(request.server.ctx, request.actor, request.params.owner, request.params.repo, p);
    return paged(r.items.map((d) => presentInvitation(request, d)), p, r.total);
  });

  app.patch('/repos/:owner/:repo/invitations/:invitation_id', {
    schema: { params: RepoInvitationParams, body: UpdateInvitationBody, response: { 200: RepositoryInvitation } },
    config: { operationId: 'repos/update-invitation', resource: 'RepositoryInvitation', acceptedScopes: REPO_SCOPES },
  }, async (request) => {
    const { owner, repo, invitation_id: id } = request.params;
    const d = await collaborators.updateInvitation(request.server.ctx, request.actor, owner, repo, id, request.body?.permissions);
    return presentInvitation(request, d);
  });

  app.delete('/repos/:owner/:repo/invitations/:invitation_id', {
    schema: { params: RepoInvitationParams, response: NO_CONTENT },
    config: { operationId: 'repos/delete-invitation', acceptedScopes: REPO_SCOPES },
  }, async (request, reply) => {
    const { owner, repo, invitation_id: id } = request.params;
    await collaborators.deleteInvitation(request.server.ctx, request.actor, owner, repo, id);
    return reply.code(204).send(null);
  });

  // Invitations: the invitee's side

  app.get('/user/repository_invitations', {
    schema: { querystring: PageQuery, response: { 200: PagedArray(RepositoryInvitation) } },
    config: { operationId: 'repos/list-invitations-for-authenticated-user', acceptedScopes: INVITE_SCOPES },
  }, async (request) => {
    const p = pageOf(request.query);
    const r = await collaborators.listInvitationsForAuthenticatedUser(request.server.ctx, request.actor, p);
    return paged(r.items.map((d) => presentInvitation(request, d)), p, r.total);
  });

  app.patch('/user/repository_invitations/:invitation_id', {
    schema: { params: InvitationParams, response: NO_CONTENT },
    config: { operationId: 'repos/accept-invitation-for-authenticated-user', acceptedScopes: INVITE_SCOPES },
  }, async (request, reply) => {
    await collaborators.acceptInvitation(request.server.ctx, request.actor, request.params.invitation_id);
    return reply.code(204).send(null);
  });

  app.delete('/user/repository_invitations/:invitation_id', {
    schema: { params: InvitationParams, response: NO_CONTENT },
    config: { operationId: 'repos/decline-invitation-for-authenticated-user', acceptedScopes: INVITE_SCOPES },
  }, async (request, reply) => {
    await collaborators.declineInvitation(request.server.ctx, request.actor, request.params.invitation_id);
    return reply.code(204).send(null);
  });

  // Custom repository roles

  app.get('/orgs/:org/custom-repository-roles', {
    schema: { params: OrgParams, response: { 200: CustomRoleList } },
    config: { operationId: 'orgs/list-custom-repo-roles', acceptedScopes: ['admin:org', 'repo'] },
  }, async (request) => {
    const r = await roles.listCustomRoles(request.server.ctx, request.actor, request.params.org);
    return customRoleList(r.roles, r.org.account, urls);
  });

  app.post('/orgs/:org/custom-repository-roles', {
    schema: { params: OrgParams, body: CreateCustomRoleBody, response: { 201: CustomRole } },
    config: { operationId: 'orgs/create-custom-repo-role', resource: 'CustomRepositoryRole', acceptedScopes: ['admin:org'] },
  }, async (request, reply) => {
    const b = request.body;
    const r = await roles.createCustomRole(request.server.ctx, request.actor, request.params.org, {
      name: b.name, description: b.description, baseRole: b.base_role, permissions: b.permissions,
    });
    return reply.code(201).send(customRole(r.role, r.org.account, urls));
  });

  app.get('/orgs/:org/custom-repository-roles/:role_id', {
    schema: { params: OrgRoleParams, response: { 200: CustomRole } },
    config: { operationId: 'orgs/get-custom-repo-role', acceptedScopes: ['admin:org', 'repo'] },
  }, async (request) => {
    const r = await roles.getCustomRole(request.server.ctx, request.actor, request.params.org, request.params.role_id);
    return customRole(r.role, r.org.account, urls);
  });

  app.patch('/orgs/:org/custom-repository-roles/:role_id', {
    schema: { params: OrgRoleParams, body: UpdateCustomRoleBody, response: { 200: CustomRole } },
    config: { operationId: 'orgs/update-custom-repo-role', resource: 'CustomRepositoryRole', acceptedScopes: ['admin:org'] },
  }, async (request) => {
    const b = request.body ?? {};
    const r = await roles.updateCustomRole(request.server.ctx, request.actor, request.params.org, request.params.role_id, {
      name: b.name, description: b.description, baseRole: b.base_role, permissions: b.permissions,
    });
    return customRole(r.role, r.org.account, urls);
  });

  app.delete('/orgs/:org/custom-repository-roles/:role_id', {
    schema: { params: OrgRoleParams, response: NO_CONTENT },
    config: { operationId: 'orgs/delete-custom-repo-role', acceptedScopes: ['admin:org'] },
  }, async (request, reply) => {
    await roles.deleteCustomRole(request.server.ctx, request.actor, request.params.org, request.params.role_id);
    return reply.code(204).send(null);
  });
}
