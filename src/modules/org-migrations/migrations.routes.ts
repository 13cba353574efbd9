// /orgs/{org}/migrations… and /user/migrations… (upstream's migrations API), and the
// short-lived archive download address those hand out (GET /migration-archives/{guid}).
import fs from 'node:fs';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { NoContent } from '../../http/schema-types.ts';
import {
  ArchiveParams, ArchiveQuery, ListQuery, MIGRATIONS_PREVIEW, Migration, MigrationList, OrgLockParams, OrgMigrationParams, OrgParams,
  PageQuery, RepositoryList, StartBody, UserLockParams, UserMigrationParams,
} from './migrations.schemas.ts';
import * as migrations from './migrations.service.ts';
import { migrationView, repositoryView } from './migrations.views.ts';

const ORG_SCOPES = ['admin:org', 'repo'];
const USER_SCOPES = ['repo', 'user'];
const NO_CONTENT = { 204: NoContent };
const FOUND = { 302: Type.Null() };

function startInput(b: StartBody): migrations.StartInput {
  return {
    repositories: b.repositories, lockRepositories: b.lock_repositories, excludeMetadata: b.exclude_metadata,
    excludeGitData: b.exclude_git_data, excludeAttachments: b.exclude_attachments, excludeReleases: b.exclude_releases,
    excludeOwnerProjects: b.exclude_owner_projects, orgMetadataOnly: b.org_metadata_only, exclude: b.exclude,
  };
}

/** Migrations as views; their repositories in one batch (left out when `exclude` names them). */
async function present(ctx: AppContext, request: FastifyRequest, items: migrations.MigrationAt[], excludeRepositories: boolean) {
  const all = excludeRepositories ? [] : await migrations.presentableRepositories(ctx, request.actor, items.flatMap((m) => m.repositories));
  const byId = new Map(all.map((p) => [p.repo.id, p]));
  const previews = request.media.previews;
  return items.map((m) => migrationView(m.migration, m.owner, excludeRepositories ? null : m.repositories.flatMap((r) => byId.get(r.id) ?? []), ctx.urls, previews));
}

const excludes = (q: ListQuery) => [q.exclude ?? []].flat().includes('repositories');

type Owner = (request: FastifyRequest) => migrations.MigrationOwner;
type Operation = 'start' | 'list' | 'get-status' | 'archive' | 'delete-archive' | 'unlock-repo' | 'list-repos';

// Written out (not built) so that scripts/draft-app-permissions.mjs finds every id.
const ORG_IDS: Record<Operation, { operationId: string }> = {
  start: { operationId: 'migrations/start-for-org' }, list: { operationId: 'migrations/list-for-org' }, 'get-status': { operationId: 'migrations/get-status-for-org' },
  archive: { operationId: 'migrations/download-archive-for-org' }, 'delete-archive': { operationId: 'migrations/delete-archive-for-org' },
  'unlock-repo': { operationId: 'migrations/unlock-repo-for-org' }, 'list-repos': { operationId: 'migrations/list-repos-for-org' },
};
const USER_IDS: Record<Operation, { operationId: string }> = {
  start: { operationId: 'migrations/start-for-authenticated-user' }, list: { operationId: 'migrations/list-for-authenticated-user' },
  'get-status': { operationId: 'migrations/get-status-for-authenticated-user' }, archive: { operationId: 'migrations/get-archive-for-authenticated-user' },
  'delete-archive': { operationId: 'migrations/delete-archive-for-authenticated-user' }, 'unlock-repo': { operationId: 'migrations/unlock-repo-for-authenticated-user' },
  'list-repos': { operationId: 'migrations/list-repos-for-authenticated-user' },
};

/** The same seven routes for an organization's and for the user's migrations. */
function ownerRoutes(app: Router, base: string, suffix: 'org' | 'authenticated-user', who: Owner, opts: { acceptedScopes: string[]; listPreview?: string }) {
  const params = suffix === 'org' ? OrgMigrationParams : UserMigrationParams;
  const lockParams = suffix === 'org' ? OrgLockParams : UserLockParams;
  const baseParams = suffix === 'org' ? { params: OrgParams } : {};
  const ids = suffix === 'org' ? ORG_IDS : USER_IDS;
  const config = (operation: Operation) => ({ ...ids[operation], resource: 'Migration', acceptedScopes: opts.acceptedScopes });
  const id = (request: FastifyRequest) => (request.params as { migration_id: number }).migration_id;

  app.post(base, {
    schema: { ...baseParams, body: StartBody, response: { 201: Migration } },
    config: config('start'),
  }, async (request, reply) => {
    const { ctx } = request.server;
    const at = await migrations.startMigration(ctx, request.actor, who(request), startInput(request.body));
    const [view] = await present(ctx, request, [at], at.migration.exclude.includes('repositories'));
    return reply.code(201).send(view);
  });

  app.get(base, {
    schema: { ...baseParams, querystring: ListQuery, response: { 200: MigrationList } },
    config: { ...config('list'), ...(opts.listPreview ? { requiredPreview: opts.listPreview } : {}) },
  }, async (request) => {
    const { ctx } = request.server;
    const p = pageOf(request.query);
    const page = await migrations.listMigrations(ctx, request.actor, who(request), p);
    return paged(await present(ctx, request, page.items, excludes(request.query)), p, page.total);
  });

  app.get(`${base}/:migration_id`, {
    schema: { params, querystring: ListQuery, response: { 200: Migration } },
    config: config('get-status'),
  }, async (request) => {
    const { ctx } = request.server;
    const at = await migrations.getMigration(ctx, request.actor, who(request), id(request));
    return (await present(ctx, request, [at], excludes(request.query)))[0];
  });

  app.get(`${base}/:migration_id/archive`, {
    schema: { params, response: FOUND },
    config: config('archive'),
  }, async (request, reply) => {
    const url = await migrations.archiveDownloadUrl(request.server.ctx, request.actor, who(request), id(request));
    return reply.redirect(url, 302);
  });

  app.delete(`${base}/:migration_id/archive`, {
    schema: { params, response: NO_CONTENT },
    config: config('delete-archive'),
  }, async (request, reply) => {
    await migrations.deleteArchive(request.server.ctx, request.actor, who(request), id(request));
    return reply.code(204).send(null);
  });

  app.delete(`${base}/:migration_id/repos/:repo_name/lock`, {
    schema: { params: lockParams, response: NO_CONTENT },
    config: config('unlock-repo'),
  }, async (request, reply) => {
    const { repo_name: name } = request.params as { repo_name: string };
    await migrations.unlockRepository(request.server.ctx, request.actor, who(request), id(request), name);
    return reply.code(204).send(null);
  });

  app.get(`${base}/:migration_id/repositories`, {
    schema: { params, querystring: PageQuery, response: { 200: RepositoryList } },
    config: config('list-repos'),
  }, async (request) => {
    const { ctx } = request.server;
    const p = pageOf(request.query);
    const page = await migrations.listRepositories(ctx, request.actor, who(request), id(request), p);
    return paged(page.items.map((x) => repositoryView(x, ctx.urls, request.media.previews)), p, page.total);
  });
}

export function orgMigrationsRoutes(app: Router): void {
  // The spec asks for the wyandotte preview on the organization list (415 without it).
  ownerRoutes(app, '/orgs/:org/migrations', 'org', (r) => ({ kind: 'org', login: (r.params as { org: string }).org }), { acceptedScopes: ORG_SCOPES, listPreview: MIGRATIONS_PREVIEW });
  ownerRoutes(app, '/user/migrations', 'authenticated-user', () => ({ kind: 'user' }), { acceptedScopes: USER_SCOPES });

  // The download address GET …/archive redirects to: the token is the credential.
  app.get('/migration-archives/:guid', {
    schema: { params: ArchiveParams, querystring: ArchiveQuery },
    config: { operationId: 'wharf/download-migration-archive', rawResponse: true },
  }, async (request, reply) => {
    const a = await migrations.openArchive(request.server.ctx, request.params.guid, request.query.token);
    return reply.type('application/gzip').header('content-length', a.size)
      .header('content-disposition', `attachment; filename=${JSON.stringify(a.name)}`).send(fs.createReadStream(a.path));
  });
}
