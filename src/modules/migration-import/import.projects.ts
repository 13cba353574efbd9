// Classic projects of an archive: a repository's (in that repository's transaction,
// after its issues, which its cards show) and the owner's, an organization's or a
// user's (after every repository: their cards show issues of any of them). A card
// showing an issue the import did not make (a repository left out or skipped) is left
// out, as the issue is.
import type { AppContext } from '../../context.ts';
import { importProject } from '../projects/projects.import.ts';
import type { Account } from '../users/users.model.ts';
import type { CardRecord, ProjectBoardRecord } from './import.records.ts';

/** The id here of the issue a card shows, or null when the import has none. */
export type IssueIdOf = (content: NonNullable<CardRecord['content']>) => Promise<number | null>;

/** A card made here, by the archive's id of it: timeline events about it (added_to_project …) name it. */
export interface ImportedCardRef {
  id: number;
  projectId: number;
}

/** Answers the cards made, by their archive ids; `made` gets each project's id. */
export async function importProjects(
  tx: AppContext, owner: { type: 'Organization' | 'Repository' | 'User'; id: number }, projects: readonly ProjectBoardRecord[],
  who: (login: string | null) => Account, issueIdOf: IssueIdOf, made: number[] = [],
): Promise<Map<number, ImportedCardRef>> {
  const out = new Map<number, ImportedCardRef>();
  for (const p of projects) {
    // One card per issue in a project, as here: a second one of the same issue is left out.
    const shown = new Set<number>();
    const columns = [];
    for (const c of p.columns) {
      const cards = [];
      for (const k of c.cards) {
        const issueId = k.content === null ? null : await issueIdOf(k.content);
        if ((issueId === null && k.note === null) || (issueId !== null && shown.has(issueId))) continue;
        if (issueId !== null) shown.add(issueId);
        cards.push({ sourceId: k.sourceId, note: k.note, issueId, archived: k.archived, creatorId: who(k.creator).id, createdAt: k.createdAt, updatedAt: k.updatedAt });
      }
      columns.push({ name: c.name, createdAt: c.createdAt, updatedAt: c.updatedAt, cards });
    }
    const project = await importProject(tx, owner, {
      name: p.name, body: p.body, state: p.state, organizationPermission: p.organizationPermission, private: p.private,
      creatorId: who(p.creator).id, createdAt: p.createdAt, updatedAt: p.updatedAt, columns,
    });
    made.push(project.id);
    const sources = columns.flatMap((c) => c.cards.map((k) => k.sourceId));
    for (const [i, id] of project.cards.entries()) {
      const source = sources[i];
      if (source !== undefined && source !== null) out.set(source, { id, projectId: project.id });
    }
  }
  return out;
}
