// Advanced security: the repository switch (upstream's security_and_analysis), the
// organization's default for new repositories, and its billing, the committers: users
// whose commits (committer address matched to the user, as commit verification matches
// it) were pushed in the last 90 days to repositories where it is enabled.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { isoSeconds, nowIso } from '../../domain/clock.ts';
import { ForbiddenError } from '../../domain/errors.ts';
import type { Slice } from '../../domain/page.ts';
import type { DomainEvent } from '../../events/outbox.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { billedAccount } from './billing.service.ts';
import * as store from './billing.store.ts';

const WINDOW_MS = 90 * 86_400_000;

export async function enabledRepositories(ctx: AppContext, repositoryIds: readonly number[]): Promise<Set<number>> {
  return store.repositoriesWithSecurity(ctx.db, repositoryIds);
}

export async function setRepositoryEnabled(ctx: AppContext, repositoryId: number, enabled: boolean): Promise<void> {
  await store.setRepositorySecurity(ctx.db, repositoryId, enabled, nowIso(ctx.clock));
}

export async function enabledForNewRepositories(ctx: AppContext, organizationId: number): Promise<boolean> {
  return store.organizationSecurity(ctx.db, organizationId);
}

export async function setEnabledForNewRepositories(ctx: AppContext, organizationId: number, enabled: boolean): Promise<void> {
  await store.setOrganizationSecurity(ctx.db, organizationId, enabled, nowIso(ctx.clock));
}

interface PushedCommit {
  distinct?: boolean;
  committer?: { email?: string };
}

/**
 * In the recording transaction: a push credits the committers of its new commits; a
 * repository created in an organization that enables advanced security for new
 * repositories gets it enabled.
 */
export async function onEvent(ctx: AppContext, e: DomainEvent & { id: number }): Promise<void> {
  if (e.event === 'push' && e.repositoryId) {
    const commits = (Array.isArray(e.payload.commits) ? e.payload.commits : []) as PushedCommit[];
    const emails = [...new Set(commits.filter((c) => c.distinct !== false).map((c) => c.committer?.email?.toLowerCase()).filter((m): m is string => !!m))];
    if (!emails.length) return;
    const owners = await users.accountsByEmails(ctx, emails);
    const now = nowIso(ctx.clock);
    const credited = new Set<number>();
    for (const email of emails) {
      const user = owners.get(email);
      if (!user || user.type !== 'User' || credited.has(user.id)) continue;
      credited.add(user.id);
      await store.recordCommitter(ctx.db, e.repositoryId, user.id, email, now);
    }
  } else if (e.event === 'repository' && e.action === 'created' && e.repositoryId && e.organizationId) {
    if (await enabledForNewRepositories(ctx, e.organizationId)) await setRepositoryEnabled(ctx, e.repositoryId, true);
  }
}

// ---------------------------------------------------------------- billing

export interface CommitterEntry {
  user: Account;
  lastPushedAt: string;
  lastPushedEmail: string;
}

export interface RepositoryCommitters {
  repo: Repo;
  committers: CommitterEntry[];
}

export interface AdvancedSecuritySummary {
  /** Distinct users across the enabled repositories (not the sum of theirs). */
  total: number;
  /** Distinct users across every repository of the organization, were it enabled on all. */
  maximum: number;
  /** Enabled repositories, for paging. */
  totalRepositories: number;
  repositories: RepositoryCommitters[];
}

export async function committersSummary(ctx: AppContext, actor: Actor, login: string, slice: Slice): Promise<AdvancedSecuritySummary> {
  const org = await billedAccount(ctx, actor, { kind: 'org', login });
  const allIds = await repos.repositoryIdsOwnedBy(ctx, org.id);
  const enabled = await enabledRepositories(ctx, allIds);
  if (enabled.size === 0 && !(await enabledForNewRepositories(ctx, org.id))) {
    throw new ForbiddenError('Advanced Security must be enabled for this organization.');
  }
  const since = isoSeconds(new Date(ctx.clock.now().getTime() - WINDOW_MS));
  const rows = await store.committersSince(ctx.db, allIds, since);
  const enabledRows = rows.filter((r) => enabled.has(r.repositoryId));
  const enabledIds = allIds.filter((id) => enabled.has(id));
  const repositories = await repos.reposByIds(ctx, enabledIds);
  repositories.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  const page = repositories.slice(slice.offset, slice.offset + slice.perPage);
  const accounts = await users.accountsByIds(ctx, [...new Set(enabledRows.map((r) => r.userId))]);
  return {
    total: new Set(enabledRows.map((r) => r.userId)).size,
    maximum: new Set(rows.map((r) => r.userId)).size,
    totalRepositories: repositories.length,
    repositories: page.map((repo) => ({
      repo,
      committers: enabledRows.filter((r) => r.repositoryId === repo.id && accounts.has(r.userId))
        .map((r) => ({ user: accounts.get(r.userId)!, lastPushedAt: r.lastPushedAt, lastPushedEmail: r.lastPushedEmail }))
        .sort((a, b) => a.user.login.localeCompare(b.user.login)),
    })),
  };
}
