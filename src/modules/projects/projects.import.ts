// Import-shaped entry points for migration archives (migration-import): a classic
// project put in as the archive has it (name, body, state, permissions, creator, times)
// with its columns and cards in board order, on a repository, an organization or a user.
// No actor, no events: nobody made anything here. A repository's projects go with it; an
// account's are taken back out by removeImportedProjects when the import fails.
import type { AppContext } from '../../context.ts';
import * as board from './board.store.ts';
import type { OrganizationPermission, ProjectState } from './projects.model.ts';
import * as store from './projects.store.ts';

export interface ImportedCard {
  /** The archive's id of the card (not stored: the caller maps it to the id made here). */
  sourceId?: number | null;
  note: string | null;
  issueId: number | null;
  archived: boolean;
  creatorId: number;
  createdAt: string;
  updatedAt: string;
}

export interface ImportedColumn {
  name: string;
  createdAt: string;
  updatedAt: string;
  cards: ImportedCard[];
}

export interface ImportedProject {
  name: string;
  body: string | null;
  state: ProjectState;
  organizationPermission: OrganizationPermission | null;
  private: boolean;
  creatorId: number;
  createdAt: string;
  updatedAt: string;
  columns: ImportedColumn[];
}

/**
 * The project with the owner's next number, in the caller's transaction; answers its id
 * and its cards' ids in the order given. One card per issue in a project: the caller
 * leaves out a second one (the unique index would refuse it).
 */
export async function importProject(
  tx: AppContext, owner: { type: 'Organization' | 'Repository' | 'User'; id: number }, p: ImportedProject,
): Promise<{ id: number; cards: number[] }> {
  const made = await store.insertProject(tx.db, {
    owner, name: p.name, body: p.body, organizationPermission: owner.type === 'Organization' ? p.organizationPermission : null,
    private: p.private, creatorId: p.creatorId, now: p.createdAt,
  });
  const cards: number[] = [];
  for (const [position, c] of p.columns.entries()) {
    const column = await board.insertColumn(tx.db, made.id, c.name, position, c.createdAt);
    if (c.updatedAt !== c.createdAt) await board.renameColumn(tx.db, column.id, c.name, c.updatedAt);
    for (const [cardPosition, card] of c.cards.entries()) {
      const row = await board.insertCard(tx.db, {
        projectId: made.id, columnId: column.id, position: cardPosition, note: card.note, issueId: card.issueId, creatorId: card.creatorId, now: card.createdAt,
      });
      if (card.archived || card.updatedAt !== card.createdAt) await board.updateCard(tx.db, row.id, { archived: card.archived }, card.updatedAt);
      cards.push(row.id);
    }
  }
  // Last: its state and the time it was last changed, as the archive has them.
  await store.updateProject(tx.db, made.id, { state: p.state }, p.updatedAt);
  return { id: made.id, cards };
}

/** The names (lower-cased) of an organization's or a user's projects: an import skips an archive's project of a name taken. */
export async function accountProjectNames(ctx: AppContext, owner: { type: 'Organization' | 'User'; id: number }): Promise<Set<string>> {
  return new Set((await store.listProjects(ctx.db, owner, 'all')).map((p) => p.name.toLowerCase()));
}

/** Removes projects an import made (their columns and cards go with them). */
export async function removeImportedProjects(ctx: AppContext, ids: readonly number[]): Promise<void> {
  for (const id of ids) await store.deleteProject(ctx.db, id);
}
