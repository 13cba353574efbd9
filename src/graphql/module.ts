// What a module contributes to the GraphQL schema (see the comment at the top of
// schema.ts for how to add one).
import type { GraphQLResolveInfo } from 'graphql';
import type { Slice } from './connection.ts';
import type { GraphQLContext, Typed } from './context.ts';
import type { NodeResolver } from './node-id.ts';

/**
 * A field's resolver. Sources and arguments are typed by the module that writes
 * it (`(repo: RepositoryNode, args: { first?: number }) => …`); any such function
 * fits here, because a parameter of type `never` accepts every function.
 */
export type FieldResolver = (source: never, args: never, g: GraphQLContext, info: GraphQLResolveInfo) => unknown;

/** Resolvers by type name, then field name. Only object types take resolvers (interfaces and unions resolve by `__typename`). */
export type Resolvers = Record<string, Record<string, FieldResolver>>;

/**
 * One search type (`search(type: REPOSITORY)`): a page of matching results and their
 * number. The query string is the module's to parse (the search module's language).
 */
export type SearchHandler = (g: GraphQLContext, query: string, page: { offset: number; limit: number }) => Promise<Slice<Typed>>;

export interface GraphQLModule {
  /** For error messages at start-up. */
  name: string;
  /** SDL: new types, and `extend type|interface|enum|union|input …` of any other module's types. */
  typeDefs: string;
  resolvers?: Resolvers;
  /** Global-id type name (as in REST node_id) → its resolver, for node(id:) and nodes(ids:). */
  nodes?: Record<string, NodeResolver>;
  /** "Type.field" or "Type" → scopes, any one of which the token needs (checked before execution). */
  scopes?: Record<string, readonly string[]>;
  /** SearchType value → its handler. */
  search?: Record<string, SearchHandler>;
  /**
   * Registers what the module adds to registries other modules keep (reactable
   * subjects …); called once, when the schema is assembled, never at import time.
   */
  register?: () => void;
}
