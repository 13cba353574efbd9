// Projects as far as Wharf has them. Boards (classic projects) and their cards are
// issue #17, and projects (beta) are not planned: until boards are built no project,
// column or card exists, so an issue is on no board and no project id names anything.
// Issues and pull requests ask here, so that they answer from real boards once the
// boards exist.
import { NotFoundError } from '../../domain/errors.ts';

/** The project cards showing an issue or pull request: none while Wharf has no boards. */
export function cardsOfIssue(): readonly never[] {
  return [];
}

/** The projects (beta) items of an issue or pull request: Wharf has no such projects. */
export function projectItemsOfIssue(): readonly never[] {
  return [];
}

/** Fails with upstream's NOT_FOUND for the first id that names no project the caller may see. */
export function requireProjects(globalIds: readonly string[] | null | undefined): void {
  const first = globalIds?.[0];
  if (first !== undefined) throw new NotFoundError(`Could not resolve to a node with the global id of '${first}'.`);
}
