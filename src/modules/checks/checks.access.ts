// Who may write checks of a repository: an app's installation token (its installation
// reaches the repository; the route already checked its `checks` permission), or — only
// where the site admin allows it (WHARF_CHECKS_ALLOW_USER_TOKENS) — a user's token with
// push access, for CI systems that are not apps. Such runs belong to suites of no app.
import type { AppContext } from '../../context.ts';
import { requireScope, requireUser, type Actor } from '../../domain/actor.ts';
import { ForbiddenError } from '../../domain/errors.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';

/** Upstream's answers: an installation outside its repositories, and a user's token. */
const NOT_ACCESSIBLE = 'Resource not accessible by integration';
export const APP_REQUIRED = 'You must authenticate via a GitHub App.';

export interface Writer {
  repo: Repo;
  /** The app writing, null for a user's token. */
  appId: number | null;
  /** The account the events name as sender (the app's bot, or the user). */
  senderId: number;
}

export async function forReading(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<Repo> {
  return (await repos.locate(ctx, actor, owner, name, 'pull')).repo;
}

export async function forWriting(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<Writer> {
  const user = requireUser(actor);
  const { repo } = await repos.locate(ctx, actor, owner, name, 'pull');
  const integration = actor.method === 'installation' ? actor.integration : null;
  if (integration) {
    // A public repository is readable to every installation, writable only to its own.
    if (!integration.repositoryIds?.has(repo.id)) throw new ForbiddenError(NOT_ACCESSIBLE);
  } else {
    if (!ctx.config.checksAllowUserTokens) throw new ForbiddenError(APP_REQUIRED);
    requireScope(actor, ...(repo.visibility === 'public' ? ['public_repo', 'repo'] : ['repo']));
    await repos.requireRole(ctx, actor, repo, 'push');
  }
  if (repo.archived) throw new ForbiddenError('Repository was archived so is read-only.');
  return { repo, appId: integration?.appId ?? null, senderId: user.id };
}

/**
 * Rerequesting is pressing "Re-run": the app that owns the run (through an installation
 * token), or a user with push access to the repository, whatever the site setting.
 */
export async function forRerequest(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<Writer> {
  const user = requireUser(actor);
  const integration = actor.method === 'installation' ? actor.integration : null;
  if (integration) return forWriting(ctx, actor, owner, name);
  const { repo } = await repos.locate(ctx, actor, owner, name, 'pull');
  requireScope(actor, ...(repo.visibility === 'public' ? ['public_repo', 'repo'] : ['repo']));
  await repos.requireRole(ctx, actor, repo, 'push');
  if (repo.archived) throw new ForbiddenError('Repository was archived so is read-only.');
  return { repo, appId: null, senderId: user.id };
}
