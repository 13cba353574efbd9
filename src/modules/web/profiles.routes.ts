// The profile pages: `/{login}` (repositories; a user's stars at `?tab=stars`, an
// organization's people and teams beside its repositories), `/orgs/{org}/people`,
// `/orgs/{org}/teams` and a team at its html_url `/orgs/{org}/teams/{slug}`. The last
// two addresses are the API's too: there the page answers only a browser.
import type { Router } from '../../http/router.ts';
import { sendPage } from '../web-session/web-request.ts';
import { profilePage } from './home.pages.ts';
import { EMPTY_ORG_INVITE, managedPeoplePage } from './org-settings.pages.ts';
import * as orgSettings from './org-settings.service.ts';
import { orgAside, peoplePage, profileNav, starsPage, teamPage, teamsPage } from './profiles.pages.ts';
import * as profiles from './profiles.service.ts';
import { BROWSER_ONLY, PAGE, pageNumber } from './web.forms.ts';
import { viewerOf } from './web.request.ts';
import { LoginParams, OrgParams, PageQuery, ProfileQuery, TeamParams } from './web.schemas.ts';
import * as web from './web.service.ts';

/** Registered inside the pages' scope (web.routes.ts). */
export function profilePages(r: Router): void {
  const ctx = r.ctx;

  r.get('/:login', { schema: { params: LoginParams, querystring: ProfileQuery }, config: { ...PAGE, operationId: 'wharf/web-profile' } }, async (request, reply) => {
    const viewer = await viewerOf(request);
    const page = pageNumber(request.query.page);
    if (request.query.tab === 'stars') {
      // An organization has no stars: its address shows its profile whatever the tab.
      const stars = await profiles.starsOf(ctx, viewer.actor, request.params.login, page);
      if (stars.account.type !== 'Organization') return sendPage(reply, starsPage(viewer.frame(`${stars.account.login}'s stars`), stars));
    }
    const v = await web.profile(ctx, viewer.actor, request.params.login, page);
    const a = v.account;
    if (a.type === 'Organization') {
      const people = await profiles.orgAside(ctx, viewer.actor, a);
      return sendPage(reply, profilePage(viewer.frame(a.login), v, { nav: profileNav(a, 'repositories', people.teams !== null), aside: orgAside(people) }));
    }
    return sendPage(reply, profilePage(viewer.frame(a.login), v, { nav: profileNav(a, 'repositories') }));
  });

  r.get('/orgs/:org/people', { schema: { params: OrgParams, querystring: PageQuery }, config: { ...PAGE, operationId: 'wharf/web-org-people' } }, async (request, reply) => {
    const viewer = await viewerOf(request);
    // An owner gets the same list with each member's role and the owner's actions (org-settings.routes.ts).
    if (await orgSettings.isOwner(ctx, viewer.actor, request.params.org)) {
      const managed = await orgSettings.peopleAdminOf(ctx, viewer.actor, request.params.org, pageNumber(request.query.page));
      return sendPage(reply, managedPeoplePage(viewer.frame(`People · ${managed.org.account.login}`), managed, EMPTY_ORG_INVITE));
    }
    const v = await profiles.peopleOf(ctx, viewer.actor, request.params.org, pageNumber(request.query.page));
    return sendPage(reply, peoplePage(viewer.frame(`People · ${v.org.login}`), v));
  });

  r.get('/orgs/:org/teams', { constraints: BROWSER_ONLY, schema: { params: OrgParams, querystring: PageQuery }, config: { ...PAGE, operationId: 'wharf/web-org-teams' } }, async (request, reply) => {
    const viewer = await viewerOf(request);
    const v = await profiles.teamsOf(ctx, viewer.actor, request.params.org, pageNumber(request.query.page));
    return sendPage(reply.header('vary', 'Accept'), teamsPage(viewer.frame(`Teams · ${v.org.login}`), v));
  });

  r.get('/orgs/:org/teams/:team_slug', { constraints: BROWSER_ONLY, schema: { params: TeamParams, querystring: PageQuery }, config: { ...PAGE, operationId: 'wharf/web-team' } }, async (request, reply) => {
    const viewer = await viewerOf(request);
    const v = await profiles.teamAt(ctx, viewer.actor, request.params.org, request.params.team_slug, pageNumber(request.query.page));
    return sendPage(reply.header('vary', 'Accept'), teamPage(viewer.frame(`${v.team.team.name} · ${v.team.org.account.login}`), v));
  });
}
