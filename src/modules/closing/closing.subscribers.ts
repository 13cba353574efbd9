// Closing keywords take effect when their text lands on the default branch: a push to it
// (git over HTTP, commits made through the API, and the push a merge records) closes
// what each commit's message names, with that commit as `commit_id`; a pull request
// merged into it closes what its body and its commits name, with the merge commit.
// Both run inside the transaction that records the event.
import type { AppContext } from '../../context.ts';
import { anonymousActor, userActor, type Actor } from '../../domain/actor.ts';
import type { DomainEvent } from '../../events/outbox.ts';
import * as git from '../../git/repository.ts';
import * as repos from '../repos/repos.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as users from '../users/users.service.ts';
import { closeReferencedIssues } from './closing.service.ts';

interface PushPayload {
  ref?: string;
  deleted?: boolean;
  commits?: { id?: string; message?: string }[];
}

interface PullPayload {
  pull_request?: {
    merged?: boolean;
    body?: string | null;
    merge_commit_sha?: string | null;
    base?: { ref?: string; sha?: string; repo?: { id?: number } };
    head?: { sha?: string };
  };
}

async function actorOf(ctx: AppContext, actorId: number | null | undefined): Promise<Actor | null> {
  if (!actorId) return null;
  const account = (await users.accountsByIds(ctx, [actorId])).get(actorId);
  return account ? userActor({ id: account.id, login: account.login, siteAdmin: account.siteAdmin }, 'token', 0, [], '') : anonymousActor('');
}

async function repoOf(ctx: AppContext, id: number | null | undefined): Promise<Repo | null> {
  if (id == null) return null;
  const [repo] = await repos.reposByIds(ctx, [id]);
  return repo ?? null;
}

async function onPush(ctx: AppContext, e: DomainEvent): Promise<void> {
  const p = e.payload as PushPayload;
  if (p.deleted || !p.commits?.length) return;
  const repo = await repoOf(ctx, e.repositoryId);
  if (!repo || p.ref !== `refs/heads/${repo.defaultBranch}`) return;
  const actor = await actorOf(ctx, e.actorId);
  if (!actor?.user) return;
  for (const c of p.commits) {
    if (c.id && c.message) await closeReferencedIssues(ctx, actor, repo, [c.message], c.id);
  }
}

async function onMerged(ctx: AppContext, e: DomainEvent): Promise<void> {
  const pull = (e.payload as PullPayload).pull_request;
  if (!pull?.merged) return;
  const repo = await repoOf(ctx, e.repositoryId);
  if (!repo || pull.base?.ref !== repo.defaultBranch) return;
  const actor = await actorOf(ctx, e.actorId);
  if (!actor?.user) return;
  // The pull request's commits: its head, less what the base had before the merge.
  const dir = repos.gitDir(ctx, repo);
  const commits = pull.head?.sha && pull.base?.sha
    ? await git.commitsBetween(dir, pull.head.sha, [pull.base.sha]).catch(() => [])
    : [];
  await closeReferencedIssues(ctx, actor, repo, [pull.body ?? null, ...commits.map((c) => c.message)], pull.merge_commit_sha ?? null);
}

export async function onEvent(ctx: AppContext, e: DomainEvent): Promise<void> {
  if (e.event === 'push') await onPush(ctx, e);
  else if (e.event === 'pull_request' && e.action === 'closed') await onMerged(ctx, e);
}
