// One repository of an archive: the repository with its git data (a fork linked to its
// parent when that is here) and its teams' access, then its labels, milestones, issues
// and pull requests (in number order, keeping their numbers), comments, reviews and
// review comments, the reactions to them, its classic projects, and its releases with
// their assets' bytes, all in one transaction of its own. The repository is queued for
// the search index (code and commits) in that transaction too: no push event is
// recorded for imported git data. When the transaction fails, whatever it left on disk
// (git data, asset files) is removed, since the rollback takes only the rows.
import path from 'node:path';
import { inTransaction, type AppContext } from '../../context.ts';
import { wakeWorkers } from '../../events/wake.ts';
import { importComment, importIssue, importLabels, importMilestone } from '../issues/issues.import.ts';
import type { IssueRecord as StoredIssue } from '../issues/issues.model.ts';
import { hasCommits, importPull } from '../pulls/pulls.import.ts';
import { importTeamGrant } from '../orgs/orgs.import.ts';
import { importReaction } from '../reactions/reactions.import.ts';
import { importAsset, importRelease, removeImportedAssetFiles } from '../releases/releases.import.ts';
import { importRepository, removeImportedRepositoryFiles } from '../repos/repos.import.ts';
import type { Repo } from '../repos/repos.model.ts';
import { queueRepository } from '../search/search-indexer.ts';
import type { Accounts } from './import.accounts.ts';
import type { ImportConflict } from './import.model.ts';
import type { ArchiveRecords, IssueRecord, PullRecord, RepositoryRecord } from './import.records.ts';
import { importProjects, type ImportedCardRef } from './import.projects.ts';
import { importReviews } from './import.reviews.ts';

/** The records of one repository (by its archive key). */
function recordsOf(r: ArchiveRecords, key: string) {
  const of = <T extends { repo: string }>(xs: T[]) => xs.filter((x) => x.repo === key);
  return {
    labels: of(r.labels), milestones: of(r.milestones), issues: of(r.issues), pulls: of(r.pulls), comments: of(r.comments), reactions: of(r.reactions),
    reviews: of(r.reviews), reviewComments: of(r.reviewComments), releases: of(r.releases), events: of(r.events),
    projects: r.projects.filter((p) => p.repo === key),
    teams: r.teams.flatMap((t) => t.repositories.filter((x) => x.repo === key).map((x) => ({ team: t.name, permission: x.permission }))),
  };
}

/**
 * Imports the repository in a transaction of its own; `record` runs last in it (the job
 * notes what it created). A fork whose parent is in the archive finds it in `keyToRepoId`.
 */
export async function importOneRepository(
  ctx: AppContext, records: ArchiveRecords, source: RepositoryRecord, name: string, from: { git: string | null; files: string },
  accounts: Accounts, keyToRepoId: Map<string, number>, conflicts: ImportConflict[],
  record: (tx: AppContext, made: ImportedRepository) => Promise<void>,
): Promise<ImportedRepository> {
  // Every repository id an attempt made: a transaction retried after a conflict makes another.
  const attempts: number[] = [];
  const discard = async (ids: readonly number[]) => {
    await removeImportedRepositoryFiles(ctx, ids);
    await removeImportedAssetFiles(ctx, ids);
  };
  let made: ImportedRepository;
  // What the committed attempt reported (a retried one reports afresh).
  let found: ImportConflict[] = [];
  try {
    made = await inTransaction(ctx, async (tx) => {
      // A previous attempt rolled back: its files go before this one may get its id again.
      await discard(attempts.splice(0));
      found = [];
      const forkOf = source.parent === null ? null : { importedId: keyToRepoId.get(source.parent.toLowerCase()) ?? null, fullName: source.parent };
      const repo = await importRepository(tx, accounts.owner, {
        ...source.flags, ...source.texts, name, description: source.description, homepage: source.homepage, visibility: source.visibility,
        defaultBranch: source.defaultBranch, topics: source.topics, createdAt: source.createdAt, updatedAt: source.updatedAt, pushedAt: source.pushedAt, forkOf,
      }, from.git);
      attempts.push(repo.id);
      const out = { repo, ...await importContents(tx, records, source, repo, from.files, accounts, keyToRepoId, found) };
      await record(tx, out);
      return out;
    });
  } catch (err) {
    // The rollback took the rows; the git data and asset files already written go too.
    await discard(attempts);
    throw err;
  }
  await discard(attempts.filter((id) => id !== made.repo.id));
  if (source.fork && !made.repo.isFork) {
    conflicts.push({
      kind: 'fork', source: `${source.owner}/${source.name}`, resolution: 'unlinked', target: `${accounts.owner.login}/${made.repo.name}`,
      message: source.parent === null
        ? 'the archive marks it a fork without naming its parent: imported as a plain repository'
        : `its parent ${source.parent} is neither in the archive nor here: imported as a plain repository`,
    });
  }
  conflicts.push(...found);
  return made;
}

/** A repository made, with what the timeline events (imported last) hang on: its issues by number, its projects' cards by archive id. */
export interface ImportedRepository {
  repo: Repo;
  issues: Map<number, StoredIssue>;
  cards: Map<number, ImportedCardRef>;
  /** The reviews made, by archive id (review_dismissed events name them). */
  reviews: Map<number, number>;
}

async function importContents(
  tx: AppContext, records: ArchiveRecords, source: RepositoryRecord, repo: Repo, fileRoot: string,
  accounts: Accounts, keyToRepoId: Map<string, number>, conflicts: ImportConflict[],
): Promise<Omit<ImportedRepository, 'repo'>> {
  const who = (login: string | null) => (login === null ? accounts.fallback : accounts.byLogin.get(login.toLowerCase()) ?? accounts.fallback);
  const maybe = (login: string | null) => (login === null ? null : who(login).id);
  await queueRepository(tx, repo.id);
  wakeWorkers(tx);
  const mine = recordsOf(records, source.key);
  for (const g of mine.teams) {
    const teamId = accounts.teams.get(g.team.toLowerCase());
    if (teamId !== undefined) await importTeamGrant(tx, teamId, repo.id, g.permission);
  }
  const labelIds = await importLabels(tx, repo.id, mine.labels.map((l) => ({ name: l.name, color: l.color, description: l.description, isDefault: l.isDefault })));
  const milestoneIds = new Map<number, number>();
  for (const m of [...mine.milestones].sort((a, b) => a.number - b.number)) {
    milestoneIds.set(m.number, await importMilestone(tx, repo.id, {
      number: m.number, title: m.title, description: m.description, state: m.state, creatorId: maybe(m.creator), dueOn: m.dueOn,
      closedAt: m.closedAt, createdAt: m.createdAt, updatedAt: m.updatedAt,
    }));
  }
  const issueFields = (i: IssueRecord) => ({
    number: i.number, title: i.title, body: i.body, userId: who(i.user).id, state: i.state, stateReason: i.stateReason, locked: i.locked,
    activeLockReason: i.activeLockReason, milestoneId: i.milestone === null ? null : milestoneIds.get(i.milestone) ?? null,
    closedAt: i.closedAt, closedById: maybe(i.closedBy), createdAt: i.createdAt, updatedAt: i.updatedAt,
    labelIds: i.labels.flatMap((l) => labelIds.get(l.toLowerCase()) ?? []), assigneeIds: i.assignees.map((a) => who(a).id),
  });
  const issues = new Map<number, StoredIssue>();
  const all: (IssueRecord | PullRecord)[] = [...mine.issues, ...mine.pulls].sort((a, b) => a.number - b.number);
  for (const i of all) {
    if (!('headSha' in i)) {
      issues.set(i.number, await importIssue(tx, repo.id, { ...issueFields(i), isPullRequest: false }));
      continue;
    }
    if (!(await hasCommits(tx, repo, i))) {
      conflicts.push({ kind: 'pull_request', source: `${source.owner}/${source.name}#${i.number}`, resolution: 'skipped', target: null, message: 'its head or base commit is not in the archive\'s git data' });
      continue;
    }
    issues.set(i.number, await importPull(tx, repo, {
      issue: issueFields(i), headRepositoryId: i.headRepo === null ? null : keyToRepoId.get(i.headRepo) ?? null,
      headRef: i.headRef, headSha: i.headSha, baseRef: i.baseRef, baseSha: i.baseSha, draft: i.draft,
      maintainerCanModify: i.maintainerCanModify, mergedAt: i.mergedAt, mergedById: maybe(i.mergedBy), mergeCommitSha: i.mergeCommitSha,
    }));
  }
  const commentIds = new Map<number, number>();
  for (const c of [...mine.comments].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.sourceId - b.sourceId))) {
    const issue = issues.get(c.issueNumber);
    if (!issue) continue;
    commentIds.set(c.sourceId, await importComment(tx, issue, { userId: who(c.user).id, body: c.body, createdAt: c.createdAt, updatedAt: c.updatedAt }));
  }
  const { reviewIds, commentIds: reviewCommentIds } = await importReviews(tx, repo, new Set([...issues.keys()]), mine.reviews, mine.reviewComments, who);
  for (const x of mine.reactions) {
    const id = x.subject.type === 'issue' ? issues.get(x.subject.number)?.id
      : (x.subject.type === 'issue_comment' ? commentIds : reviewCommentIds).get(x.subject.sourceId);
    // A reaction to something the import skipped (a pull request whose commits are missing) goes with it.
    if (id === undefined) continue;
    await importReaction(tx, { type: x.subject.type, id }, repo.id, { userId: who(x.user).id, content: x.content, createdAt: x.createdAt });
  }
  const cards = await importProjects(tx, { type: 'Repository', id: repo.id }, mine.projects, who, (c) => Promise.resolve(c.repo === source.key ? issues.get(c.number)?.id ?? null : null));
  // Oldest first: the release list reads as it did, and ids rise with creation here too.
  for (const r of [...mine.releases].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))) {
    const releaseId = await importRelease(tx, repo.id, {
      tagName: r.tagName, targetCommitish: r.targetCommitish, name: r.name, body: r.body, draft: r.draft, prerelease: r.prerelease,
      authorId: r.author === null ? null : who(r.author).id, createdAt: r.createdAt, publishedAt: r.publishedAt, updatedAt: r.updatedAt,
    });
    for (const a of r.assets) {
      await importAsset(tx, repo.id, releaseId, {
        name: a.name, label: a.label, contentType: a.contentType, uploaderId: maybe(a.uploader), downloadCount: a.downloadCount,
        createdAt: a.createdAt, updatedAt: a.updatedAt,
      }, path.join(fileRoot, a.file));
    }
  }
  return { issues, cards, reviews: reviewIds };
}
