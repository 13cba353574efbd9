// The issue timeline as REST shows it (records; the routes present them): an issue's events (oldest first), the
// repository's (newest first, each with its issue), one event by id.
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { nowIso } from '../../domain/clock.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { Page, Slice } from '../../domain/page.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { IssueEventRecord } from './issues.model.ts';
import { locateIssue } from './issues.service.ts';
import * as eventStore from './issue-events.store.ts';

/** Events of one repository; `withIssue`: their views show their issue (the repository-wide list, one event). */
export interface EventsOf {
  repo: Repo;
  withIssue: boolean;
  page: Page<IssueEventRecord>;
}

export async function listForIssue(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, slice: Slice): Promise<EventsOf> {
  const { repo, issue } = await locateIssue(ctx, actor, owner, name, number);
  const { rows, total } = await eventStore.list(ctx.db, { repositoryId: repo.id, issueId: issue.id }, slice);
  return { repo, withIssue: false, page: { items: rows, total } };
}

export async function listForRepo(ctx: AppContext, actor: Actor, owner: string, name: string, slice: Slice): Promise<EventsOf> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const { rows, total } = await eventStore.list(ctx.db, { repositoryId: repo.id }, slice);
  return { repo, withIssue: true, page: { items: rows, total } };
}

export async function getEvent(ctx: AppContext, actor: Actor, owner: string, name: string, id: number): Promise<EventsOf> {
  const { repo } = await repos.locate(ctx, actor, owner, name);
  const e = Number.isSafeInteger(id) ? await eventStore.findById(ctx.db, repo.id, id) : null;
  if (!e) throw new NotFoundError();
  return { repo, withIssue: true, page: { items: [e], total: 1 } };
}

/** Writes an event on an issue's timeline for another module (projects: added_to_project …), in the caller's transaction. */
export async function recordIssueEvent(tx: AppContext, e: eventStore.NewEvent): Promise<void> {
  await eventStore.insertMany(tx.db, [e], nowIso(tx.clock));
}
