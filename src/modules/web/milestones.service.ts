// The milestones pages' data: a repository's milestones in the API's order with their
// progress (open and closed issues, pull requests counted too, as the API counts them),
// and one milestone with its issues and pull requests, read through the issues module's
// milestone service and issue lists with the viewer as actor; the forms' writes go through
// the same service, whose rules (push access, titles unique) decide.
import type { AppContext } from '../../context.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { Actor } from '../../domain/actor.ts';
import type { Page } from '../../domain/page.ts';
import * as issueLists from '../issues/issue-lists.service.ts';
import type { IssueRecord, LabelRecord, MilestoneCounts, MilestoneRecord } from '../issues/issues.model.ts';
import { labelsOfIssues, milestoneDetails } from '../issues/issues.present.ts';
import * as milestones from '../issues/milestones.service.ts';
import type { MilestoneAt } from '../issues/milestones.service.ts';
import { renderHtml } from '../markdown/markdown.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { Account } from '../users/users.model.ts';
import * as users from '../users/users.service.ts';
import { PER_PAGE } from './web.service.ts';

/** The orders the API offers (GET …/milestones `sort` and `direction`), named as upstream's menu names them. */
export const MILESTONE_SORTS = {
  'due_date-asc': { label: 'Closest due date', sort: 'due_on', direction: 'asc' },
  'due_date-desc': { label: 'Furthest due date', sort: 'due_on', direction: 'desc' },
  'completeness-asc': { label: 'Least complete', sort: 'completeness', direction: 'asc' },
  'completeness-desc': { label: 'Most complete', sort: 'completeness', direction: 'desc' },
} as const;
export type MilestoneSort = keyof typeof MILESTONE_SORTS;

export function milestoneSort(sort: string | undefined, direction: string | undefined): MilestoneSort {
  const key = `${sort ?? 'due_date'}-${direction ?? 'asc'}`;
  return key in MILESTONE_SORTS ? key as MilestoneSort : 'due_date-asc';
}

export interface MilestoneEntry {
  milestone: MilestoneRecord;
  counts: MilestoneCounts;
  /** The description as sanitized HTML ('' when it has none). */
  html: string;
}

export interface MilestonesView {
  repo: Repo;
  /** The viewer may create, edit and close milestones (the milestones service's rule). */
  canEdit: boolean;
  state: 'open' | 'closed';
  sort: MilestoneSort;
  page: number;
  entries: MilestoneEntry[];
  /** How many milestones each tab holds. */
  openCount: number;
  closedCount: number;
}

async function entriesOf(ctx: AppContext, repo: Repo, records: readonly MilestoneRecord[]): Promise<MilestoneEntry[]> {
  const details = await milestoneDetails(ctx, records, new Map([[repo.id, repo]]));
  const context = `${repo.owner.login}/${repo.name}`;
  return Promise.all(records.map(async (m) => ({
    milestone: m,
    counts: details.get(m.id)?.counts ?? { open: 0, closed: 0 },
    html: m.description ? await renderHtml(ctx, m.description, { mode: 'gfm', context }) : '',
  })));
}

/** One page of open or closed milestones in one of the API's orders, and each tab's count. */
export async function milestonesOf(
  ctx: AppContext, actor: Actor, owner: string, name: string, state: 'open' | 'closed', sort: MilestoneSort, page: number,
): Promise<MilestonesView> {
  const order = MILESTONE_SORTS[sort];
  const other = state === 'open' ? 'closed' : 'open';
  const [list, others, canEdit] = await Promise.all([
    milestones.listMilestones(ctx, actor, owner, name, { state, sort: order.sort, direction: order.direction }, { perPage: PER_PAGE, offset: (page - 1) * PER_PAGE }),
    milestones.listMilestones(ctx, actor, owner, name, { state: other }, { perPage: 1, offset: 0 }),
    mayEdit(ctx, actor, owner, name),
  ]);
  return {
    repo: list.repo, canEdit, state, sort, page, entries: await entriesOf(ctx, list.repo, list.page.items),
    openCount: state === 'open' ? list.page.total : others.page.total,
    closedCount: state === 'closed' ? list.page.total : others.page.total,
  };
}

export interface MilestoneView {
  repo: Repo;
  canEdit: boolean;
  entry: MilestoneEntry;
  state: 'open' | 'closed';
  page: number;
  issues: Page<IssueRecord>;
  authors: Map<number, Account>;
  labels: Map<number, LabelRecord[]>;
}

/** A milestone (at its html_url) with its open or closed issues and pull requests, as GET …/issues?milestone=N lists them. */
export async function milestoneAt(
  ctx: AppContext, actor: Actor, owner: string, name: string, number: number, state: 'open' | 'closed', page: number,
): Promise<MilestoneView> {
  const { repo, milestone } = await milestones.getMilestone(ctx, actor, owner, name, number);
  const list = await issueLists.listRepoIssues(ctx, actor, owner, name, { state, milestone: String(milestone.number) },
    { perPage: PER_PAGE, offset: (page - 1) * PER_PAGE });
  const [entry, authors, labels, canEdit] = await Promise.all([
    entriesOf(ctx, repo, [milestone]).then((e) => e[0]!),
    users.accountsByIds(ctx, list.page.items.map((i) => i.userId)),
    labelsOfIssues(ctx, list.page.items.map((i) => i.id)),
    mayEdit(ctx, actor, owner, name),
  ]);
  return { repo, canEdit, entry, state, page, issues: list.page, authors, labels };
}

// ---------------------------------------------------------------- the forms

/** Offered to those the milestones service lets write (push access, a repository that is not archived). */
async function mayEdit(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<boolean> {
  if (!actor.user) return false;
  const { repo, access } = await repos.locate(ctx, actor, owner, name);
  return !repo.archived && milestones.canEditMilestones(access.effective);
}

/** The repository whose milestone forms are asked for; like upstream, a 404 to those who may not use them. */
export async function editorRepo(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<Repo> {
  const { repo, access } = await repos.locate(ctx, actor, owner, name);
  if (!actor.user || repo.archived || !milestones.canEditMilestones(access.effective)) throw new NotFoundError();
  return repo;
}

/** A milestone to edit, for those who may. */
export async function editable(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<MilestoneAt> {
  await editorRepo(ctx, actor, owner, name);
  return milestones.getMilestone(ctx, actor, owner, name, number);
}

/** The repository and a milestone as anyone who may read them sees them (a refused form is shown again with them). */
export function repoOf(ctx: AppContext, actor: Actor, owner: string, name: string): Promise<repos.Located> {
  return repos.locate(ctx, actor, owner, name);
}

export function milestoneOf(ctx: AppContext, actor: Actor, owner: string, name: string, number: number): Promise<MilestoneAt> {
  return milestones.getMilestone(ctx, actor, owner, name, number);
}

/** The fields of a milestone form, as typed; a field the form did not send is undefined (left as it is). */
export interface MilestoneFields {
  title?: string;
  description?: string;
  dueOn?: string;
  state?: string;
}

/** Form fields as the API's input: an emptied description or due date clears it. */
function input(f: MilestoneFields): milestones.MilestoneInput {
  return {
    ...(f.title !== undefined ? { title: f.title.trim() } : {}),
    ...(f.description !== undefined ? { description: f.description === '' ? null : f.description } : {}),
    ...(f.dueOn !== undefined ? { due_on: f.dueOn === '' ? null : f.dueOn } : {}),
    ...(f.state !== undefined ? { state: f.state } : {}),
  };
}

export function createMilestone(ctx: AppContext, actor: Actor, owner: string, name: string, f: MilestoneFields): Promise<MilestoneAt> {
  return milestones.createMilestone(ctx, actor, owner, name, { ...input(f), title: (f.title ?? '').trim() });
}

export function updateMilestone(ctx: AppContext, actor: Actor, owner: string, name: string, number: number, f: MilestoneFields): Promise<MilestoneAt> {
  return milestones.updateMilestone(ctx, actor, owner, name, number, input(f));
}
