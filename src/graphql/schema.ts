// Assembles Wharf's GraphQL schema from the modules' contributions.
//
// EXTENSION POINT — how a module adds its GraphQL (issues, pull requests, labels …):
//  1. Write src/modules/<area>/<area>.graphql.ts exporting its SDL: new types, and
//     `extend type Repository { issues(...): IssueConnection! }`, `extend enum
//     SearchType { ISSUE }`, `extend union SearchResultItem = Issue`,
//     `extend type Mutation { createIssue(input: CreateIssueInput!): CreateIssuePayload }`.
//     Names, types, arguments and enum values must exist in @octokit/graphql-schema
//     (test/graphql-schema.test.ts checks every one).
//  2. Write src/modules/<area>/<area>.resolvers.ts exporting a GraphQLModule
//     (src/graphql/module.ts): `resolvers` by type and field (fields added to other
//     modules' types included), `nodes` (global-id type → resolver for node(id:)),
//     `scopes` (checked before execution), `search` (SearchType value → handler).
//     Resolvers call the module's service (the one REST calls) and return objects
//     carrying `__typename`; lists use offsetConnection (connection.ts); relations
//     go through loaders defined with defineLoader (loaders.ts), so lists batch.
//  3. Add the module to GRAPHQL_MODULES in src/graphql/modules.ts.
// Nothing in src/graphql needs to change.
import { assertValidSchema, buildASTSchema, isObjectType, parse, printSchema, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { GraphQLContext } from './context.ts';
import { coreModule, type Registry } from './core.resolvers.ts';
import type { GraphQLModule, SearchHandler } from './module.ts';
import { GRAPHQL_MODULES } from './modules.ts';
import type { NodeResolver } from './node-id.ts';

export interface WharfSchema {
  schema: GraphQLSchema;
  nodes: ReadonlyMap<string, NodeResolver>;
  search: ReadonlyMap<string, SearchHandler>;
  /** "Type.field" or "Type" → accepted scopes. */
  scopes: ReadonlyMap<string, readonly string[]>;
  /** The schema in SDL, as the IDL media type answers it. */
  sdl(): string;
}

function mergeInto<V>(target: Map<string, V>, entries: Record<string, V> | undefined, what: string, module: string): void {
  for (const [key, value] of Object.entries(entries ?? {})) {
    if (target.has(key)) throw new Error(`GraphQL module ${module}: ${what} ${key} is already registered`);
    target.set(key, value);
  }
}

export function assembleSchema(modules: readonly GraphQLModule[]): WharfSchema {
  const nodes = new Map<string, NodeResolver>();
  const search = new Map<string, SearchHandler>();
  const scopes = new Map<string, readonly string[]>();
  const registry: Registry = { nodes, search };
  const all = [coreModule(registry), ...modules];
  for (const m of all) {
    m.register?.();
    mergeInto(nodes, m.nodes, 'node type', m.name);
    mergeInto(search, m.search, 'search type', m.name);
    mergeInto(scopes, m.scopes, 'scope rule', m.name);
  }

  const schema = buildASTSchema(parse(all.map((m) => m.typeDefs).join('\n')));
  for (const m of all) {
    for (const [typeName, fields] of Object.entries(m.resolvers ?? {})) {
      const type = schema.getType(typeName);
      if (!type || !isObjectType(type)) throw new Error(`GraphQL module ${m.name}: resolvers for ${typeName}, which is not an object type of the schema`);
      const defined = type.getFields();
      for (const [fieldName, resolve] of Object.entries(fields)) {
        const field = defined[fieldName];
        if (!field) throw new Error(`GraphQL module ${m.name}: resolver for unknown field ${typeName}.${fieldName}`);
        if (field.resolve) throw new Error(`GraphQL module ${m.name}: ${typeName}.${fieldName} already has a resolver`);
        field.resolve = resolve as unknown as GraphQLFieldResolver<unknown, GraphQLContext>;
      }
    }
  }
  assertValidSchema(schema);

  // node(id:) must reach every type that claims to be a Node.
  const nodeInterface = schema.getType('Node');
  for (const type of Object.values(schema.getTypeMap())) {
    if (isObjectType(type) && nodeInterface && type.getInterfaces().some((i) => i.name === 'Node') && !nodes.has(type.name)) {
      throw new Error(`GraphQL type ${type.name} implements Node but no module resolves its global ids`);
    }
  }
  for (const key of [...search.keys()]) {
    const searchType = schema.getType('SearchType');
    if (!searchType || !('getValue' in searchType) || !searchType.getValue(key)) throw new Error(`search handler for ${key}, which SearchType lacks`);
  }

  let sdl: string | null = null;
  return { schema, nodes, search, scopes, sdl: () => (sdl ??= printSchema(schema)) };
}

let built: WharfSchema | null = null;

/** The schema of the registered modules, built once per process. */
export function wharfSchema(): WharfSchema {
  built ??= assembleSchema(GRAPHQL_MODULES);
  return built;
}
