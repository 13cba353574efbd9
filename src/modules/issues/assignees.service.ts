// Assignees: who may be assigned in a repository (users with push access, as
// upstream), the check of one login, and adding or removing assignees of an issue
// (logins that may not be assigned are ignored, as upstream).
import { inTransaction, type AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import * as collaborators from '../collaborators/collaborators.service.ts';
import { roleAtLeast } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { assignableAccounts, canTriageIssues, changeAssignees, locateIssue, requireWritable, type IssueAt } from './issues.service.ts';
import * as store from './issues.store.ts';

export async function listAssignees(ctx: AppContext, actor: Actor, owner: string, name: string, slice: Slice): Promise<Page<Account>> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const grants = [...(await collaborators.repositoryGrants(ctx, repo)).values()]
    .filter((g) => roleAtLeast(g.role, 'push'))
    .sort((a, b) => a.userId - b.userId);
  const accounts = await users.accountsByIds(ctx, grants.map((g) => g.userId));
  const all = grants.flatMap((g) => {
    const a = accounts.get(g.userId);
    return a && a.type === 'User' ? [a] : [];
  });
  return { items: all.slice(slice.offset, slice.offset + slice.perPage), total: all.length };
}

/** Resolves when the login may be assigned issues in the repository; NotFound otherwise. */
export async function checkAssignee(ctx: AppContext, actor: Actor, owner: string, name: string, login: string): Promise<void> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const { accounts } = await assignableAccounts(ctx, repo, [login]);
  if (!accounts.length) throw new NotFoundError();
}

/** GET …/issues/{n}/assignees/{login}: whether the login may be assigned to this issue. */
export async function checkIssueAssignee(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, login: string): Promise<void> {
  const { repo } = await locateIssue(ctx, actor, owner, name, number);
  const { accounts } = await assignableAccounts(ctx, repo, [login]);
  if (!accounts.length) throw new NotFoundError();
}

export function assigneesFromBody(body: unknown): string[] {
  const raw = body && typeof body === 'object' ? (body as { assignees?: unknown }).assignees : undefined;
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  for (const v of list) {
    if (typeof v !== 'string') throw new ValidationError([{ resource: 'Issue', field: 'assignees', code: 'invalid', value: v }]);
  }
  return list as string[];
}

export async function changeIssueAssignees(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, logins: string[], add: boolean,
): Promise<IssueAt> {
  const { repo, role, issue } = await locateIssue(ctx, actor, owner, name, number);
  requireWritable(repo);
  // Without triage access the request is answered with the issue unchanged (upstream ignores it).
  if (canTriageIssues(role)) {
    await inTransaction(ctx, async (tx) => {
      const current = (await store.findById(tx.db, issue.id)) ?? issue;
      await changeAssignees(tx, repo, actor, current, logins, add);
    });
  } else if (!actor.user) throw new ForbiddenError();
  return { repo, issue: (await store.findById(ctx.db, issue.id)) ?? issue };
}
