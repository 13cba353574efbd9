// The repository settings pages, for its admins (a 404 to anyone else): Access at
// /{o}/{r}/settings/access with the invite, permission and removal posts (and a pending
// invitation's permission change and cancellation), and Webhooks
// at /{o}/{r}/settings/hooks with a hook's page, its edit, delete and redeliver posts.
// Each write goes through the service the REST API uses; a refusal is shown inline.
import type { FastifyReply } from 'fastify';
import type { Router } from '../../http/router.ts';
import { redirectToLogin, sendPage } from '../web-session/web-request.ts';
import { accessPage, EMPTY_INVITE, hookFormOf, hookPage, hooksPage, newHookPage, typedHookForm, type InviteFormState } from './repo-settings.pages.ts';
import * as settings from './repo-settings.service.ts';
import { repoPath } from './repo.layout.ts';
import { formErrors, PAGE, signedInPost } from './web.forms.ts';
import { viewerOf, type Viewer } from './web.request.ts';
import { CollaboratorForm, DeliveryParams, HookForm, HookParams, RepoParams, TokenForm } from './web.schemas.ts';
import { InvitationForm, InvitationParams } from './settings.schemas.ts';

/** Registered inside the pages' scope (web.routes.ts). */
export function repoSettingsPages(r: Router): void {
  const ctx = r.ctx;
  const title = (section: string, repo: { owner: { login: string }; name: string }) => `${section} · Settings · ${repo.owner.login}/${repo.name}`;

  // ------------------------------------------------------------ access

  /**
   * An Access page post: `act`, then back to the Access page; a refusal shows the page
   * again with its message, and `typed` (the invite form as typed, or empty).
   */
  async function accessPost(
    reply: FastifyReply, viewer: Viewer, owner: string, repo: string, typed: Omit<InviteFormState, 'errors'>, act: () => Promise<unknown>,
  ): Promise<FastifyReply> {
    try {
      await act();
      const at = await settings.adminRepo(ctx, viewer.actor, owner, repo);
      return reply.redirect(repoPath(at, 'settings', 'access'), 303);
    } catch (err) {
      const { status, messages } = formErrors(err);
      const v = await settings.accessOf(ctx, viewer.actor, owner, repo);
      return sendPage(reply.code(status), accessPage(viewer.frame(title('Collaborators', v.repo)), v, { ...typed, errors: messages }));
    }
  }

  r.get('/:owner/:repo/settings/access', { schema: { params: RepoParams }, config: { ...PAGE, operationId: 'wharf/web-repo-access' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const v = await settings.accessOf(ctx, viewer.actor, owner, repo);
    return sendPage(reply, accessPage(viewer.frame(title('Collaborators', v.repo)), v, EMPTY_INVITE));
  });

  /** Invite a user, or change a collaborator's permission (the API's PUT does both). */
  r.post('/:owner/:repo/settings/access/collaborators', { schema: { params: RepoParams, body: CollaboratorForm }, config: { ...PAGE, operationId: 'wharf/web-repo-set-collaborator' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const login = (request.body.login ?? '').trim();
    const permission = request.body.permission ?? 'push';
    return signedInPost(request, reply, request.body.authenticity_token, (viewer) =>
      accessPost(reply, viewer, owner, repo, { login, permission, notice: [] }, () => settings.setCollaborator(ctx, viewer.actor, owner, repo, login, permission)));
  });

  r.post('/:owner/:repo/settings/access/collaborators/remove', { schema: { params: RepoParams, body: CollaboratorForm }, config: { ...PAGE, operationId: 'wharf/web-repo-remove-collaborator' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const login = (request.body.login ?? '').trim();
    return signedInPost(request, reply, request.body.authenticity_token, (viewer) =>
      accessPost(reply, viewer, owner, repo, EMPTY_INVITE, () => settings.removeCollaborator(ctx, viewer.actor, owner, repo, login)));
  });

  /** PATCH …/invitations/{id}: a pending invitation's permission. */
  r.post('/:owner/:repo/settings/access/invitations/:invitation_id', { schema: { params: InvitationParams, body: InvitationForm }, config: { ...PAGE, operationId: 'wharf/web-repo-update-invitation' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const id = settings.hookId(request.params.invitation_id);
    return signedInPost(request, reply, request.body.authenticity_token, (viewer) =>
      accessPost(reply, viewer, owner, repo, EMPTY_INVITE, () => settings.changeInvitation(ctx, viewer.actor, owner, repo, id, request.body.permissions ?? '')));
  });

  /** DELETE …/invitations/{id}. */
  r.post('/:owner/:repo/settings/access/invitations/:invitation_id/delete', { schema: { params: InvitationParams, body: TokenForm }, config: { ...PAGE, operationId: 'wharf/web-repo-delete-invitation' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const id = settings.hookId(request.params.invitation_id);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      await settings.cancelInvitation(ctx, viewer.actor, owner, repo, id);
      const at = await settings.adminRepo(ctx, viewer.actor, owner, repo);
      return reply.redirect(repoPath(at, 'settings', 'access'), 303);
    });
  });

  // ------------------------------------------------------------ webhooks

  const fieldsOf = (b: HookForm): settings.HookFields => ({
    url: b.url ?? '', contentType: b.content_type ?? 'json', secret: b.secret ?? '', events: b.events ?? '', active: b.active === '1',
  });

  r.get('/:owner/:repo/settings/hooks', { schema: { params: RepoParams }, config: { ...PAGE, operationId: 'wharf/web-repo-hooks' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const v = await settings.hooksOf(ctx, viewer.actor, owner, repo);
    return sendPage(reply, hooksPage(viewer.frame(title('Webhooks', v.repo)), v.repo, v.hooks));
  });

  r.get('/:owner/:repo/settings/hooks/new', { schema: { params: RepoParams }, config: { ...PAGE, operationId: 'wharf/web-repo-new-hook' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const at = await settings.adminRepo(ctx, viewer.actor, owner, repo);
    return sendPage(reply, newHookPage(viewer.frame(title('Add webhook', at)), at, hookFormOf(null)));
  });

  r.post('/:owner/:repo/settings/hooks', { schema: { params: RepoParams, body: HookForm }, config: { ...PAGE, operationId: 'wharf/web-repo-create-hook' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const f = fieldsOf(request.body);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        const hook = await settings.createHook(ctx, viewer.actor, owner, repo, f);
        const at = await settings.adminRepo(ctx, viewer.actor, owner, repo);
        return reply.redirect(repoPath(at, 'settings', 'hooks', hook.id), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const at = await settings.adminRepo(ctx, viewer.actor, owner, repo);
        return sendPage(reply.code(status), newHookPage(viewer.frame(title('Add webhook', at)), at, typedHookForm(hookFormOf(null), f, messages)));
      }
    });
  });

  r.get('/:owner/:repo/settings/hooks/:hook_id', { schema: { params: HookParams }, config: { ...PAGE, operationId: 'wharf/web-repo-hook' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const id = settings.hookId(request.params.hook_id);
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const v = await settings.hookOf(ctx, viewer.actor, owner, repo, id);
    return sendPage(reply, hookPage(viewer.frame(title('Webhook', v.repo)), v.repo, v.hook, v.deliveries, hookFormOf(v.hook)));
  });

  r.post('/:owner/:repo/settings/hooks/:hook_id', { schema: { params: HookParams, body: HookForm }, config: { ...PAGE, operationId: 'wharf/web-repo-update-hook' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const id = settings.hookId(request.params.hook_id);
    const f = fieldsOf(request.body);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        await settings.updateHook(ctx, viewer.actor, owner, repo, id, f);
        const at = await settings.adminRepo(ctx, viewer.actor, owner, repo);
        return reply.redirect(repoPath(at, 'settings', 'hooks', id), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const v = await settings.hookOf(ctx, viewer.actor, owner, repo, id);
        return sendPage(reply.code(status), hookPage(viewer.frame(title('Webhook', v.repo)), v.repo, v.hook, v.deliveries, typedHookForm(hookFormOf(v.hook), f, messages)));
      }
    });
  });

  r.post('/:owner/:repo/settings/hooks/:hook_id/delete', { schema: { params: HookParams, body: TokenForm }, config: { ...PAGE, operationId: 'wharf/web-repo-delete-hook' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const id = settings.hookId(request.params.hook_id);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      await settings.deleteHook(ctx, viewer.actor, owner, repo, id);
      const at = await settings.adminRepo(ctx, viewer.actor, owner, repo);
      return reply.redirect(repoPath(at, 'settings', 'hooks'), 303);
    });
  });

  r.post('/:owner/:repo/settings/hooks/:hook_id/deliveries/:delivery_id/redeliver', { schema: { params: DeliveryParams, body: TokenForm }, config: { ...PAGE, operationId: 'wharf/web-repo-redeliver' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const id = settings.hookId(request.params.hook_id);
    const deliveryId = settings.hookId(request.params.delivery_id);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      await settings.redeliver(ctx, viewer.actor, owner, repo, id, deliveryId);
      const at = await settings.adminRepo(ctx, viewer.actor, owner, repo);
      return reply.redirect(repoPath(at, 'settings', 'hooks', id), 303);
    });
  });
}
