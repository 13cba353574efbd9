// Whom a push restriction names: users by login, teams by slug, apps by slug, resolved
// to the ids a rule stores (so renames keep the rule). A name that resolves to nothing
// is upstream's 422, as is any name on a repository an organization does not own.
import type { AppContext } from '../../context.ts';
import { ValidationError } from '../../domain/errors.ts';
import { installationsReaching } from '../apps/app-webhooks.service.ts';
import { findAppBySlug } from '../apps/apps.service.ts';
import { findInstallation } from '../apps/installations.service.ts';
import * as teams from '../orgs/teams.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as users from '../users/users.service.ts';

const RESOURCE = 'Branch';

export type Kind = 'users' | 'teams' | 'apps';

/** Upstream's refusal of restrictions on a repository a user owns. */
export function requireOrganizationRepo(repo: Repo): void {
  if (repo.owner.type !== 'Organization') {
    throw ValidationError.field(RESOURCE, 'restrictions', 'invalid', 'Only organization repositories can have users and team restrictions');
  }
}

async function userIds(ctx: AppContext, logins: readonly string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const login of new Set(logins)) {
    const account = await users.findAccount(ctx, login);
    if (!account || account.type !== 'User') throw ValidationError.field(RESOURCE, 'restrictions.users', 'invalid', `Could not resolve user ${login}`);
    ids.push(account.id);
  }
  return ids;
}

async function teamIds(ctx: AppContext, repo: Repo, slugs: readonly string[]): Promise<number[]> {
  const found = slugs.length ? await teams.teamsBySlugs(ctx, repo.ownerId, slugs) : [];
  const bySlug = new Map(found.map((t) => [t.slug, t.id]));
  const missing = slugs.find((slug) => !bySlug.has(slug));
  if (missing !== undefined) throw ValidationError.field(RESOURCE, 'restrictions.teams', 'invalid', `Could not resolve team ${missing}`);
  return [...new Set(slugs.map((slug) => bySlug.get(slug)!))];
}

/**
 * Apps as upstream admits them: installed on the repository (a live installation that
 * reaches it) with write access to its contents, since only such an app could push.
 */
async function appIds(ctx: AppContext, repo: Repo, slugs: readonly string[]): Promise<number[]> {
  if (slugs.length === 0) return [];
  const reaches = await installationsReaching(ctx, [repo.id]);
  const ids: number[] = [];
  for (const slug of new Set(slugs)) {
    const app = await findAppBySlug(ctx, slug);
    if (!app) throw ValidationError.field(RESOURCE, 'restrictions.apps', 'invalid', `Could not resolve app ${slug}`);
    const reach = reaches.find((r) => r.appId === app.id);
    const installation = reach ? await findInstallation(ctx, reach.installationId) : null;
    const contents = installation?.permissions.contents;
    if (contents !== 'write' && contents !== 'admin') {
      throw ValidationError.field(RESOURCE, 'restrictions.apps', 'invalid', `App ${slug} is not installed on this repository with write access to its contents`);
    }
    ids.push(app.id);
  }
  return ids;
}

/** The ids of the named users, teams or apps, in the order given, without repeats. */
export async function idsOf(ctx: AppContext, repo: Repo, kind: Kind, names: readonly string[]): Promise<number[]> {
  if (names.length) requireOrganizationRepo(repo);
  if (kind === 'users') return userIds(ctx, names);
  if (kind === 'teams') return teamIds(ctx, repo, names);
  return appIds(ctx, repo, names);
}
