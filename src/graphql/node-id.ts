// Global ids. GraphQL's Node.id is the very string REST shows as node_id
// (src/domain/node-id.ts): base64("0" + len(type) + ":" + type + id). Objects that
// live inside a repository (refs, git objects) use "<repository id>:<name>" as id.
import { decodeNodeId, encodeNodeId } from '../domain/node-id.ts';
import type { GraphQLContext, Typed } from './context.ts';

export { decodeNodeId, encodeNodeId };

/** Resolves the id part of a global id of one type to its object, or null when absent or not visible. */
export type NodeResolver = (g: GraphQLContext, id: string) => Promise<Typed | null>;

/** "<repository id>:<rest>" → its parts; null when malformed. */
export function splitRepositoryScoped(id: string): { repositoryId: number; rest: string } | null {
  const colon = id.indexOf(':');
  if (colon <= 0) return null;
  const repositoryId = Number(id.slice(0, colon));
  const rest = id.slice(colon + 1);
  if (!Number.isSafeInteger(repositoryId) || repositoryId <= 0 || rest === '') return null;
  return { repositoryId, rest };
}

/** A numeric database id from a global id's id part; null when it is not one. */
export function numericId(id: string): number | null {
  const n = Number(id);
  return /^\d+$/.test(id) && Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** The database id behind a global id of one of `types` (mutation inputs such as ownerId, teamId). */
export function idOfType(globalId: string, ...types: string[]): { type: string; id: number } | null {
  const decoded = decodeNodeId(globalId);
  if (!decoded || !types.includes(decoded.type)) return null;
  const id = numericId(decoded.id);
  return id === null ? null : { type: decoded.type, id };
}
