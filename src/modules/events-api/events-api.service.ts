// The public timelines (events API): the newest events of the outbox, which keeps every
// domain event, as upstream lists them: the 300 newest a timeline holds, and only
// events of repositories the caller may read (private ones to those who may read them).
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { recentRepositoryEvents, type StoredEvent } from '../../events/outbox.ts';
import { loadSources, renderPayload } from '../hooks/hooks.payloads.ts';
import * as orgs from '../orgs/orgs.service.ts';
import { accessToMany } from '../repos/repos.access.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import { listForks } from '../repos/repos.forks.ts';
import { listWatchedByUser } from '../repos/repos.watching.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { eventType, TIMELINE_EVENTS } from './events-api.types.ts';

/** Upstream keeps 300 events a timeline. */
export const WINDOW = 300;
/** Rows read to fill the window: events of repositories the caller may not read are skipped. */
const SCAN = 2000;

export interface TimelineEvent {
  id: number;
  type: string;
  actor: Account | null;
  repo: Repo;
  org: Account | null;
  payload: Record<string, unknown>;
  createdAt: string;
}

export interface Timeline {
  events: TimelineEvent[];
  total: number;
}

interface Scope {
  repositoryIds?: number[];
  actorId?: number;
  /** Only events of public repositories, whoever asks. */
  publicOnly: boolean;
}

async function timeline(ctx: AppContext, actor: Actor, scope: Scope, page: { offset: number; limit: number }): Promise<Timeline> {
  const rows = (await recentRepositoryEvents(ctx, { events: TIMELINE_EVENTS, repositoryIds: scope.repositoryIds, actorId: scope.actorId }, SCAN))
    .filter((e) => eventType(e) !== null);
  const repoList = await repos.reposByIds(ctx, [...new Set(rows.map((e) => e.repositoryId!))]);
  const access = scope.publicOnly ? null : await accessToMany(ctx, actor, repoList);
  const readable = new Map(repoList.filter((r) => r.visibility === 'public' || (access?.get(r.id)?.effective ?? null) !== null).map((r) => [r.id, r]));
  const visible = rows.filter((e) => readable.has(e.repositoryId!)).slice(0, WINDOW);
  const shown = visible.slice(page.offset, page.offset + page.limit);
  const shownRepos = [...new Set(shown.map((e) => readable.get(e.repositoryId!)!))];
  const sources = await loadSources(ctx, shown, shownRepos);
  const events = shown.flatMap((e) => {
    const repo = readable.get(e.repositoryId!)!;
    const rendered = renderPayload(e, sources, repo, ctx.urls);
    if (!rendered) return [];
    const { repository: _r, organization: _o, sender: _s, ...payload } = rendered;
    return [{
      id: e.id, type: eventType(e)!, actor: e.actorId ? sources.accounts.get(e.actorId) ?? null : null, repo,
      org: repo.owner.type === 'Organization' ? repo.owner : null, payload: timelinePayload(e, payload), createdAt: e.createdAt,
    }];
  });
  return { events, total: visible.length };
}

/**
 * Push events carry upstream's short push summary rather than the webhook payload;
 * create and delete events also name the full ref.
 */
function timelinePayload(e: StoredEvent, payload: Record<string, unknown>): Record<string, unknown> {
  if (e.event === 'create' || e.event === 'delete') {
    const kind = payload.ref_type === 'tag' ? 'refs/tags/' : payload.ref_type === 'branch' ? 'refs/heads/' : null;
    return { ...payload, full_ref: kind && typeof payload.ref === 'string' ? `${kind}${payload.ref}` : null };
  }
  if (e.event !== 'push') return payload;
  const commits = Array.isArray(payload.commits) ? (payload.commits as Record<string, unknown>[]) : [];
  return {
    repository_id: e.repositoryId, push_id: e.id, size: commits.length,
    distinct_size: commits.filter((c) => c.distinct !== false).length,
    ref: payload.ref, head: payload.after, before: payload.before,
    commits: commits.map((c) => {
      const author = (c.author ?? {}) as Record<string, unknown>;
      return { sha: c.id, author: { email: author.email, name: author.name }, message: c.message, distinct: c.distinct !== false, url: c.url };
    }),
  };
}

type Page = { offset: number; limit: number };

/** GET /events: every public repository's events. */
export function listPublicEvents(ctx: AppContext, actor: Actor, page: Page): Promise<Timeline> {
  return timeline(ctx, actor, { publicOnly: true }, page);
}

export async function listRepoEvents(ctx: AppContext, actor: Actor, owner: string, name: string, page: Page): Promise<Timeline> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  return timeline(ctx, actor, { repositoryIds: [repo.id], publicOnly: false }, page);
}

/** The repository and its forks (up to 1000 of them, oldest first). */
export async function listNetworkEvents(ctx: AppContext, actor: Actor, owner: string, name: string, page: Page): Promise<Timeline> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const forks = await listForks(ctx, actor, owner, name, { sort: 'oldest', limit: 1000, offset: 0 });
  return timeline(ctx, actor, { repositoryIds: [repo.id, ...forks.items.map((p) => p.repo.id)], publicOnly: true }, page);
}

async function requireUserAccount(ctx: AppContext, login: string): Promise<Account> {
  const account = await users.requireAccount(ctx, login);
  if (account.type !== 'User') throw new NotFoundError();
  return account;
}

/** What a user did; their private events only to themselves (upstream's rule). */
export async function listUserEvents(ctx: AppContext, actor: Actor, login: string, onlyPublic: boolean, page: Page): Promise<Timeline> {
  const user = await requireUserAccount(ctx, login);
  const own = actor.user?.id === user.id;
  return timeline(ctx, actor, { actorId: user.id, publicOnly: onlyPublic || !own }, page);
}

/** What happened on the repositories a user watches; private ones only to themselves. */
export async function listReceivedEvents(ctx: AppContext, actor: Actor, login: string, onlyPublic: boolean, page: Page): Promise<Timeline> {
  const user = await requireUserAccount(ctx, login);
  const watched = await listWatchedByUser(ctx, actor, login, { limit: 1000, offset: 0 });
  const own = actor.user?.id === user.id;
  return timeline(ctx, actor, { repositoryIds: watched.items.map((p) => p.repo.id), publicOnly: onlyPublic || !own }, page);
}

/** An organization's public repositories' events. */
export async function listOrgEvents(ctx: AppContext, actor: Actor, login: string, page: Page): Promise<Timeline> {
  const org = await orgs.requireOrganization(ctx, login);
  const ids = await repos.repositoryIdsOwnedBy(ctx, org.account.id);
  return timeline(ctx, actor, { repositoryIds: ids, publicOnly: true }, page);
}
