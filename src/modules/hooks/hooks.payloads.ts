// Webhook payloads in the published shape (@octokit/openapi-webhooks): the
// event-specific keys the outbox holds, plus `action`, `repository` (the full record),
// `organization` (its summary) and `sender` (the actor). Rendered once per event when
// it is fanned out, from what a batch of events needs, loaded in bulk.
import type { AppContext } from '../../context.ts';
import { anonymousActor } from '../../domain/actor.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { repository } from '../repos/repos.views.ts';
import * as orgs from '../orgs/orgs.service.ts';
import { organizationSimple, type OrganizationSimple } from '../orgs/orgs.views.ts';
import { licenseSimple } from '../templates/templates.views.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { simpleUser } from '../users/users.views.ts';
import type { Urls } from '../../urls.ts';
import type { StoredEvent } from '../../events/outbox.ts';

type Json = Record<string, unknown>;

/** Events whose published payload has a top-level hook_id. */
const SHOWS_HOOK_ID = new Set(['ping', 'meta']);

/** What rendering a batch of events needs, loaded in a fixed number of queries. */
export interface PayloadSources {
  repositories: Map<number, Json>;
  organizations: Map<number, OrganizationSimple>;
  accounts: Map<number, Account>;
}

/** The organization an event belongs to: its own, or its repository's owner. */
export function organizationOf(e: StoredEvent, repo: Repo | undefined): number | null {
  if (e.organizationId) return e.organizationId;
  return repo?.owner.type === 'Organization' ? repo.ownerId : null;
}

/** `repos` are the events' repositories, already loaded by the caller. */
export async function loadSources(ctx: AppContext, events: readonly StoredEvent[], repoList: readonly Repo[]): Promise<PayloadSources> {
  const byId = new Map(repoList.map((r) => [r.id, r]));
  const orgIds = new Set<number>();
  for (const e of events) {
    const org = organizationOf(e, e.repositoryId ? byId.get(e.repositoryId) : undefined);
    if (org) orgIds.add(org);
  }
  const actorIds = events.flatMap((e) => (e.actorId ? [e.actorId] : []));
  // A fork event names its new repository (forkee) by id; the payload shows it whole.
  const forkeeIds = events.flatMap((e) => (e.event === 'fork' && typeof e.payload.forkee_id === 'number' && !byId.has(e.payload.forkee_id) ? [e.payload.forkee_id] : []));
  const forkees = forkeeIds.length ? await repos.reposByIds(ctx, [...new Set(forkeeIds)]) : [];
  const [repositories, accounts] = await Promise.all([
    renderRepositories(ctx, [...repoList, ...forkees]),
    users.accountsByIds(ctx, [...new Set([...actorIds, ...orgIds])]),
  ]);
  const organizations = new Map<number, OrganizationSimple>();
  for (const id of orgIds) {
    const account = accounts.get(id);
    if (account?.type !== 'Organization') continue;
    const org = await orgs.requireOrganization(ctx, account.login);
    organizations.set(id, organizationSimple(account, org.settings.description, ctx.urls));
  }
  return { repositories, organizations, accounts };
}

/** The repository as webhook payloads show it (the record of GET /repos/{owner}/{repo}, without the caller's permissions). */
async function renderRepositories(ctx: AppContext, list: readonly Repo[]): Promise<Map<number, Json>> {
  if (list.length === 0) return new Map();
  const noAccess = new Map(list.map((r) => [r.id, { role: null, effective: null }]));
  const presented = await repos.presentable(ctx, anonymousActor(''), list, noAccess);
  return new Map(presented.map((p) => {
    const view = repository(p.repo, {
      urls: ctx.urls, counts: p.counts,
      // Payloads carry the merge settings and the preview fields, which the record shows
      // to admins and to preview media types.
      role: 'admin', previews: new Set(['nebula', 'baptiste']),
      license: p.repo.licenseKey ? licenseSimple(p.repo.licenseKey, ctx.urls) : null,
    }) as Json;
    delete view.permissions;
    return [p.repo.id, { ...view, custom_properties: {} }];
  }));
}

/** The repository of a deleted repository's event, rendered while it still exists. */
export async function repositorySnapshot(ctx: AppContext, repoId: number): Promise<Json | null> {
  const [repo] = await repos.reposByIds(ctx, [repoId]);
  if (!repo) return null;
  return (await renderRepositories(ctx, [repo])).get(repoId) ?? null;
}

/**
 * The payload of an event, or null when it cannot be rendered any more (its repository
 * was deleted before the event was fanned out, and the event holds no snapshot).
 */
export function renderPayload(e: StoredEvent, sources: PayloadSources, repo: Repo | undefined, urls: Urls): Json | null {
  const { repository: snapshot, hook_id: hookId, forkee_id: forkeeId, ...specific } = e.payload;
  const out: Json = {};
  if (e.action) out.action = e.action;
  Object.assign(out, specific);
  if (e.event === 'fork') {
    const forkee = typeof forkeeId === 'number' ? sources.repositories.get(forkeeId) : undefined;
    if (!forkee) return null;
    // The published forkee is the repository record plus the legacy `public` flag.
    out.forkee = { ...forkee, public: forkee.private === false };
  }
  // hook_id addresses an event to one hook (ping, test); the payload shows it where
  // the published one has it.
  if (SHOWS_HOOK_ID.has(e.event) && hookId !== undefined) out.hook_id = hookId;
  if (e.repositoryId) {
    const rendered = (snapshot as Json | undefined) ?? sources.repositories.get(e.repositoryId);
    if (!rendered) return null;
    out.repository = e.event === 'push' ? pushRepository(rendered, repo) : rendered;
  }
  const orgId = organizationOf(e, repo);
  const organization = orgId ? sources.organizations.get(orgId) : undefined;
  if (organization) out.organization = organization;
  const sender = e.actorId ? sources.accounts.get(e.actorId) : undefined;
  if (sender) out.sender = simpleUser(sender, urls);
  return out;
}

/**
 * Upstream quirk kept: in push payloads the repository's created_at and pushed_at are
 * epoch seconds, and it carries `stargazers`, `master_branch` and the organization's
 * login.
 */
function pushRepository(r: Json, repo: Repo | undefined): Json {
  const epoch = (t: unknown) => (typeof t === 'string' ? Math.floor(Date.parse(t) / 1000) : t ?? null);
  const org = repo?.owner.type === 'Organization' ? repo.owner.login : null;
  return {
    ...r,
    created_at: epoch(r.created_at),
    pushed_at: epoch(r.pushed_at),
    stargazers: r.stargazers_count,
    master_branch: r.default_branch,
    ...(org ? { organization: org } : {}),
  };
}
