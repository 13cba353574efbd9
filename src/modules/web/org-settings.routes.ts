// An organization's settings pages, for its owners (404 to anyone else): the profile
// at /organizations/{org}/settings/profile, and the people page's owner actions (invite,
// change role, remove) posted to /orgs/{org}/people/…, whose page (profiles.routes.ts)
// shows them to owners. Each write goes through the orgs service the REST API uses; a
// refusal is shown inline.
import type { Router } from '../../http/router.ts';
import { redirectToLogin, sendPage } from '../web-session/web-request.ts';
import { EMPTY_ORG_INVITE, managedPeoplePage, orgSettingsPath, peoplePath, profileSettingsPage } from './org-settings.pages.ts';
import * as orgs from './org-settings.service.ts';
import { MemberForm, OrgProfileForm } from './settings.schemas.ts';
import { formErrors, PAGE, signedInPost } from './web.forms.ts';
import type { Viewer } from './web.request.ts';
import { viewerOf } from './web.request.ts';
import { OrgParams } from './web.schemas.ts';

const on = (v: string | undefined) => v === '1';

function fieldsOf(b: OrgProfileForm): orgs.ProfileFields {
  return {
    name: b.name ?? '', email: b.email ?? '', description: b.description ?? '', blog: b.blog ?? '', location: b.location ?? '',
    company: b.company ?? '', twitterUsername: b.twitter_username ?? '', billingEmail: b.billing_email ?? '',
    defaultRepositoryPermission: b.default_repository_permission ?? '',
    membersCanCreateRepositories: on(b.members_can_create_repositories),
    membersCanCreatePublicRepositories: on(b.members_can_create_public_repositories),
    membersCanCreatePrivateRepositories: on(b.members_can_create_private_repositories),
    hasOrganizationProjects: on(b.has_organization_projects), hasRepositoryProjects: on(b.has_repository_projects),
    webCommitSignoffRequired: on(b.web_commit_signoff_required),
  };
}

/** Registered inside the pages' scope (web.routes.ts). */
export function orgSettingsPages(r: Router): void {
  const ctx = r.ctx;

  r.get('/organizations/:org/settings/profile', { schema: { params: OrgParams }, config: { ...PAGE, operationId: 'wharf/web-org-profile-settings' } }, async (request, reply) => {
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const org = await orgs.profileOf(ctx, viewer.actor, request.params.org);
    return sendPage(reply, profileSettingsPage(viewer.frame(`Settings · ${org.account.login}`), org, { fields: orgs.fieldsOfOrg(org), errors: [], notice: [] }));
  });

  r.post('/organizations/:org/settings/profile', { schema: { params: OrgParams, body: OrgProfileForm }, config: { ...PAGE, operationId: 'wharf/web-org-update-profile' } }, async (request, reply) => {
    const f = fieldsOf(request.body);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        const org = await orgs.updateProfile(ctx, viewer.actor, request.params.org, f);
        return reply.redirect(orgSettingsPath(org.account, 'profile'), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const org = await orgs.profileOf(ctx, viewer.actor, request.params.org);
        return sendPage(reply.code(status), profileSettingsPage(viewer.frame(`Settings · ${org.account.login}`), org, { fields: f, errors: messages, notice: [] }));
      }
    });
  });

  /** A people post: `act`, then back to the page; a refusal shown on it. */
  const peoplePost = (path: string, operationId: string, act: (viewer: Viewer, org: string, login: string, role: string) => Promise<void>) =>
    r.post(`/orgs/:org/people/${path}`, { schema: { params: OrgParams, body: MemberForm }, config: { ...PAGE, operationId } }, async (request, reply) => {
      const login = (request.body.login ?? '').trim();
      const role = request.body.role ?? 'member';
      return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
        try {
          await act(viewer, request.params.org, login, role);
          // Not through the owner's view: an owner who stepped down sees the page as a member.
          return reply.redirect(peoplePath({ login: request.params.org }), 303);
        } catch (err) {
          const { status, messages } = formErrors(err);
          const v = await orgs.peopleAdminOf(ctx, viewer.actor, request.params.org);
          const form = path === 'invite' ? { login, role, errors: messages } : { ...EMPTY_ORG_INVITE, errors: messages };
          return sendPage(reply.code(status), managedPeoplePage(viewer.frame(`People · ${v.org.account.login}`), v, form));
        }
      });
    });

  peoplePost('invite', 'wharf/web-org-invite-member', (viewer, org, login, role) => orgs.invite(ctx, viewer.actor, org, login, role));
  peoplePost('role', 'wharf/web-org-set-member-role', (viewer, org, login, role) => orgs.changeRole(ctx, viewer.actor, org, login, role));
  peoplePost('remove', 'wharf/web-org-remove-member', (viewer, org, login) => orgs.removeMember(ctx, viewer.actor, org, login));
}
