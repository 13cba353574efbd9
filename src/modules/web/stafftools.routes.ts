// The site-admin area at GitHub Enterprise Server's addresses: /stafftools (to the users
// list), /stafftools/users, /stafftools/organizations, /stafftools/repositories, and a
// user's or an organization's page at /stafftools/users/{login} with its posts (suspend,
// unsuspend, promote, demote, rename, password, delete). For signed-in site admins only:
// everyone else, signed in or not, gets a 404 page, on posts too (before the CSRF check,
// so a post tells nothing either). Each write is the admin service the REST API uses.
import type { TObject } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Router } from '../../http/router.ts';
import { csrfValid, sendCsrfFailure, sendPage } from '../web-session/web-request.ts';
import {
  FRESH_USER_PAGE, organizationPage, organizationsPage, repositoriesPage, staffPath, userPage, usersPage, type UserForm,
} from './stafftools.pages.ts';
import {
  CreateOrgForm, CreateUserForm, DeleteForm, PasswordForm, RenameForm, StaffListQuery, StaffLoginParams, StaffTokenForm, SuspendForm,
} from './stafftools.schemas.ts';
import * as staff from './stafftools.service.ts';
import { formErrors, PAGE, pageNumber } from './web.forms.ts';
import { viewerOf, type Viewer } from './web.request.ts';

/** A post of a signed-in site admin with the session's CSRF token; anyone else gets the 404 page and `act` never runs. */
async function staffPost(
  request: FastifyRequest, reply: FastifyReply, token: string | undefined, act: (viewer: Viewer) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  const viewer = await viewerOf(request);
  staff.requireStaff(viewer.actor);
  if (!csrfValid(request, viewer.session, token)) return sendCsrfFailure(reply, viewer.session);
  return act(viewer);
}

function filterOf(q: StaffListQuery): staff.ListFilter {
  return { q: (q.q ?? '').trim(), page: pageNumber(q.page) };
}

/** Registered inside the pages' scope (web.routes.ts). */
export function stafftoolsPages(r: Router): void {
  const ctx = r.ctx;
  const config = (operationId: string) => ({ ...PAGE, operationId });

  r.get('/stafftools', { config: config('wharf/web-stafftools') }, async (request, reply) => {
    staff.requireStaff((await viewerOf(request)).actor);
    return reply.redirect(staffPath('users'), 302);
  });

  // ------------------------------------------------------------ lists and create forms

  r.get('/stafftools/users', { schema: { querystring: StaffListQuery }, config: config('wharf/web-stafftools-users') }, async (request, reply) => {
    const viewer = await viewerOf(request);
    const list = await staff.listUsers(ctx, viewer.actor, filterOf(request.query));
    return sendPage(reply, usersPage(viewer.frame('Users · Site admin'), list));
  });

  r.post('/stafftools/users', { schema: { body: CreateUserForm }, config: config('wharf/web-stafftools-create-user') }, async (request, reply) => {
    const login = (request.body.login ?? '').trim();
    const email = (request.body.email ?? '').trim();
    return staffPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        const user = await staff.createUser(ctx, viewer.actor, login, email);
        return reply.redirect(staffPath('users', user.login), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const list = await staff.listUsers(ctx, viewer.actor, { q: '', page: 1 });
        return sendPage(reply.code(status), usersPage(viewer.frame('Users · Site admin'), list, { errors: messages, typed: { login, email } }));
      }
    });
  });

  r.get('/stafftools/organizations', { schema: { querystring: StaffListQuery }, config: config('wharf/web-stafftools-organizations') }, async (request, reply) => {
    const viewer = await viewerOf(request);
    const list = await staff.listOrganizations(ctx, viewer.actor, filterOf(request.query));
    return sendPage(reply, organizationsPage(viewer.frame('Organizations · Site admin'), list));
  });

  r.post('/stafftools/organizations', { schema: { body: CreateOrgForm }, config: config('wharf/web-stafftools-create-org') }, async (request, reply) => {
    const typed = { login: (request.body.login ?? '').trim(), admin: (request.body.admin ?? '').trim(), profile_name: (request.body.profile_name ?? '').trim() };
    return staffPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        const org = await staff.createOrganization(ctx, viewer.actor, typed.login, typed.admin, typed.profile_name);
        return reply.redirect(staffPath('users', org.account.login), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const list = await staff.listOrganizations(ctx, viewer.actor, { q: '', page: 1 });
        return sendPage(reply.code(status), organizationsPage(viewer.frame('Organizations · Site admin'), list, { errors: messages, typed }));
      }
    });
  });

  r.get('/stafftools/repositories', { schema: { querystring: StaffListQuery }, config: config('wharf/web-stafftools-repositories') }, async (request, reply) => {
    const viewer = await viewerOf(request);
    const list = await staff.listRepositories(ctx, viewer.actor, filterOf(request.query));
    return sendPage(reply, repositoriesPage(viewer.frame('Repositories · Site admin'), list));
  });

  // ------------------------------------------------------------ a user or an organization

  const title = (login: string) => `${login} · Site admin`;

  r.get('/stafftools/users/:login', { schema: { params: StaffLoginParams }, config: config('wharf/web-stafftools-user') }, async (request, reply) => {
    const viewer = await viewerOf(request);
    const v = await staff.accountOf(ctx, viewer.actor, request.params.login);
    return sendPage(reply, v.kind === 'user'
      ? userPage(viewer.frame(title(v.account.login)), v.account)
      : organizationPage(viewer.frame(title(v.org.account.login)), v.org));
  });

  /**
   * One post of a user's page: `act` runs the write; on success back to the user's page
   * (at the login `act` returns); a refusal shows the page again with the errors in `form`.
   */
  const userPost = (
    path: string, operationId: string, form: UserForm,
    body: TObject,
    act: (viewer: Viewer, login: string, fields: Record<string, string>) => Promise<string | null>,
    typedOf: (fields: Record<string, string>) => Record<string, string> = (fields) => fields,
  ) => r.post(`/stafftools/users/:login/${path}`, { schema: { params: StaffLoginParams, body }, config: config(operationId) }, async (request, reply) => {
    const { login } = request.params as { login: string };
    const raw = request.body as Record<string, string | undefined>;
    const fields = Object.fromEntries(Object.entries(raw).filter(([k]) => k !== 'authenticity_token').map(([k, v]) => [k, v ?? ''])) as Record<string, string>;
    return staffPost(request, reply, raw.authenticity_token, async (viewer) => {
      try {
        const next = await act(viewer, login, fields);
        return reply.redirect(next === null ? staffPath('users') : staffPath('users', next), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const v = await staff.accountOf(ctx, viewer.actor, login);
        const state = { errors: messages, typed: typedOf(fields) };
        return sendPage(reply.code(status), v.kind === 'user'
          ? userPage(viewer.frame(title(v.account.login)), v.account, { ...FRESH_USER_PAGE, form, state })
          : organizationPage(viewer.frame(title(v.org.account.login)), v.org, state));
      }
    });
  });

  userPost('suspend', 'wharf/web-stafftools-suspend', 'suspend', SuspendForm, async (viewer, login, f) => {
    await staff.setSuspended(ctx, viewer.actor, login, true, (f.reason ?? '').trim());
    return login;
  });
  userPost('unsuspend', 'wharf/web-stafftools-unsuspend', 'suspend', StaffTokenForm, async (viewer, login) => {
    await staff.setSuspended(ctx, viewer.actor, login, false, '');
    return login;
  });
  userPost('promote', 'wharf/web-stafftools-promote', 'site-admin', StaffTokenForm, async (viewer, login) => {
    await staff.setSiteAdmin(ctx, viewer.actor, login, true);
    return login;
  });
  userPost('demote', 'wharf/web-stafftools-demote', 'site-admin', StaffTokenForm, async (viewer, login) => {
    await staff.setSiteAdmin(ctx, viewer.actor, login, false);
    return login;
  });
  userPost('rename', 'wharf/web-stafftools-rename', 'rename', RenameForm, async (viewer, login, f) =>
    staff.rename(ctx, viewer.actor, login, (f.login ?? '').trim()));
  // The password typed is never shown back.
  userPost('password', 'wharf/web-stafftools-password', 'password', PasswordForm, async (viewer, login, f) => {
    await staff.setPassword(ctx, viewer.actor, login, f.password ?? '');
    return login;
  }, () => ({}));
  userPost('delete', 'wharf/web-stafftools-delete-user', 'delete', DeleteForm, async (viewer, login, f) => {
    await staff.deleteUser(ctx, viewer.actor, login, f.confirm ?? '');
    return null;
  });
}
