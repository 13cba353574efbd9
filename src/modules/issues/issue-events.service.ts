// The issue timeline as REST shows it: an issue's events (oldest first), the
// repository's (newest first, each with its issue), one event by id.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import * as users from '../users/users.service.ts';
import type { IssueEventRecord, IssueRecord } from './issues.model.ts';
import { presentIssues, refOf } from './issues.present.ts';
import { locateIssue } from './issues.service.ts';
import * as store from './issues.store.ts';
import * as eventStore from './events.store.ts';
import { eventView, type EventView, type IssueView } from './issues.views.ts';

async function present(ctx: AppContext, actor: Actor, repo: Repo, events: readonly IssueEventRecord[], withIssue: boolean, known: IssueRecord[] = []): Promise<EventView[]> {
  const userIds = events.flatMap((e) => [e.actorId, e.detail.assigneeId, e.detail.assignerId].filter((id): id is number => typeof id === 'number'));
  const accounts = await users.accountsByIds(ctx, userIds);
  let issueViews = new Map<number, IssueView>();
  if (withIssue) {
    const have = new Map(known.map((i) => [i.id, i]));
    for (const i of await store.findByIds(ctx.db, events.map((e) => e.issueId).filter((id) => !have.has(id)))) have.set(i.id, i);
    const records = [...have.values()];
    const views = await presentIssues(ctx, actor, records, { repos: [repo] });
    issueViews = new Map(views.map((v) => [v.id, v]));
  }
  return events.map((e) => eventView({
    event: e, repo: refOf(repo), actor: e.actorId === null ? null : accounts.get(e.actorId) ?? null, accounts,
    ...(withIssue ? { issue: issueViews.get(e.issueId) } : {}),
  }, ctx.urls));
}

export async function listForIssue(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, slice: Slice): Promise<Page<EventView>> {
  const { repo, issue } = await locateIssue(ctx, actor, owner, name, number);
  const { rows, total } = await eventStore.list(ctx.db, { repositoryId: repo.id, issueId: issue.id }, slice);
  return { items: await present(ctx, actor, repo, rows, false), total };
}

export async function listForRepo(ctx: AppContext, actor: Actor, owner: string, name: string, slice: Slice): Promise<Page<EventView>> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const { rows, total } = await eventStore.list(ctx.db, { repositoryId: repo.id }, slice);
  return { items: await present(ctx, actor, repo, rows, true), total };
}

export async function getEvent(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<EventView> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const e = Number.isSafeInteger(id) ? await eventStore.findById(ctx.db, repo.id, id) : null;
  if (!e) throw new NotFoundError();
  return (await present(ctx, actor, repo, [e], true))[0]!;
}
