// /repos/{owner}/{repo}/branches/{branch}/protection/{part}: one part of a branch's protection.
import { Type } from '@sinclair/typebox';
import type { Router } from '../../http/router.ts';
import { protectionListsRoutes } from './protection-lists.routes.ts';
import * as parts from './protection-parts.service.ts';
import { BranchParams, Flag, Restrictions, Reviews, StatusChecks, UpdateReviewsBody, UpdateStatusChecksBody } from './protection.schemas.ts';
import { flagView, protectionUrl, restrictionsView, reviewsView, statusChecksView } from './protection.views.ts';

const ADMIN = ['public_repo', 'repo'];
const RESOURCE = 'Branch';
const BASE = '/repos/:owner/:repo/branches/:branch/protection';
const NoContent = { 204: Type.Null() };

const FLAGS = [
  // Operation ids written out whole: scripts/draft-app-permissions.mjs finds them so.
  {
    path: 'enforce_admins', flag: 'enforceAdmins',
    ids: [{ operationId: 'repos/get-admin-branch-protection' }, { operationId: 'repos/set-admin-branch-protection' }, { operationId: 'repos/delete-admin-branch-protection' }],
  },
  {
    path: 'required_signatures', flag: 'requiredSignatures',
    ids: [{ operationId: 'repos/get-commit-signature-protection' }, { operationId: 'repos/create-commit-signature-protection' }, { operationId: 'repos/delete-commit-signature-protection' }],
  },
] as const;

export function protectionPartsRoutes(app: Router): void {
  const { urls } = app.ctx;

  for (const f of FLAGS) {
    const path = `${BASE}/${f.path}`;
    app.get(path, { schema: { params: BranchParams, response: { 200: Flag } }, config: { ...f.ids[0], acceptedScopes: ADMIN } }, async (request) => {
      const p = await parts.getFlag(request.server.ctx, request.actor, request.params);
      return flagView(protectionUrl(urls, p), f.path, p.rule.rules[f.flag]);
    });
    app.post(path, { schema: { params: BranchParams, response: { 200: Flag } }, config: { ...f.ids[1], resource: RESOURCE, acceptedScopes: ADMIN } }, async (request) => {
      const p = await parts.setFlag(request.server.ctx, request.actor, request.params, f.flag, true);
      return flagView(protectionUrl(urls, p), f.path, true);
    });
    app.delete(path, { schema: { params: BranchParams, response: NoContent }, config: { ...f.ids[2], resource: RESOURCE, acceptedScopes: ADMIN } }, async (request, reply) => {
      await parts.setFlag(request.server.ctx, request.actor, request.params, f.flag, false);
      return reply.code(204).send(null);
    });
  }

  const checks = `${BASE}/required_status_checks`;
  app.get(checks, { schema: { params: BranchParams, response: { 200: StatusChecks } }, config: { operationId: 'repos/get-status-checks-protection', acceptedScopes: ADMIN } }, async (request) => {
    const p = await parts.getPart(request.server.ctx, request.actor, request.params, 'requiredStatusChecks');
    return statusChecksView(protectionUrl(urls, p), p.rule.rules.requiredStatusChecks!, p.rule.rules);
  });
  app.patch(checks, {
    schema: { params: BranchParams, body: UpdateStatusChecksBody, response: { 200: StatusChecks } },
    config: { operationId: 'repos/update-status-check-protection', resource: RESOURCE, acceptedScopes: ADMIN },
  }, async (request) => {
    const p = await parts.updateStatusChecks(request.server.ctx, request.actor, request.params, request.body);
    return statusChecksView(protectionUrl(urls, p), p.rule.rules.requiredStatusChecks!, p.rule.rules);
  });
  app.delete(checks, { schema: { params: BranchParams, response: NoContent }, config: { operationId: 'repos/remove-status-check-protection', resource: RESOURCE, acceptedScopes: ADMIN } }, async (request, reply) => {
    await parts.removePart(request.server.ctx, request.actor, request.params, 'requiredStatusChecks');
    return reply.code(204).send(null);
  });

  const reviews = `${BASE}/required_pull_request_reviews`;
  app.get(reviews, { schema: { params: BranchParams, response: { 200: Reviews } }, config: { operationId: 'repos/get-pull-request-review-protection', acceptedScopes: ADMIN } }, async (request) => {
    const p = await parts.getPart(request.server.ctx, request.actor, request.params, 'requiredPullRequestReviews');
    return reviewsView(protectionUrl(urls, p), p);
  });
  app.patch(reviews, {
    schema: { params: BranchParams, body: UpdateReviewsBody, response: { 200: Reviews } },
    config: { operationId: 'repos/update-pull-request-review-protection', resource: RESOURCE, acceptedScopes: ADMIN },
  }, async (request) => {
    const p = await parts.updateReviews(request.server.ctx, request.actor, request.params, request.body);
    return reviewsView(protectionUrl(urls, p), p);
  });
  app.delete(reviews, { schema: { params: BranchParams, response: NoContent }, config: { operationId: 'repos/delete-pull-request-review-protection', resource: RESOURCE, acceptedScopes: ADMIN } }, async (request, reply) => {
    await parts.removePart(request.server.ctx, request.actor, request.params, 'requiredPullRequestReviews');
    return reply.code(204).send(null);
  });

  const restrictions = `${BASE}/restrictions`;
  app.get(restrictions, { schema: { params: BranchParams, response: { 200: Restrictions } }, config: { operationId: 'repos/get-access-restrictions', acceptedScopes: ADMIN } }, async (request) => {
    const p = await parts.getPart(request.server.ctx, request.actor, request.params, 'restrictions');
    return restrictionsView(urls, protectionUrl(urls, p), p);
  });
  app.delete(restrictions, { schema: { params: BranchParams, response: NoContent }, config: { operationId: 'repos/delete-access-restrictions', resource: RESOURCE, acceptedScopes: ADMIN } }, async (request, reply) => {
    await parts.removePart(request.server.ctx, request.actor, request.params, 'restrictions');
    return reply.code(204).send(null);
  });

  protectionListsRoutes(app);
}
