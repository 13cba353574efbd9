// Counting the SQL statements GraphQL calls run, for tests that hold GraphQL to a
// constant number of queries per request whatever the page size (batching through
// loaders). The counter wraps the context's database with a Kysely plugin; every
// query the services run through ctx.db (transactions included) passes through it,
// and those run on behalf of a GraphQL call (request-scope.ts) are counted: not the
// background workers' that share the handle, nor authentication's before the call.
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/database.ts';
import { currentGraphQLCall } from './request-scope.ts';

export interface StatementCounter {
  /** Statements GraphQL calls ran since the counter started or was last reset. */
  readonly count: number;
  /** What each was (query kind and table, or "compiled"), in order, for the message of a failing assertion. */
  readonly statements: readonly string[];
  reset(): void;
  /** Puts the original database back. */
  stop(): void;
}

function describe(node: RootOperationNode): string {
  const from = 'from' in node && node.from ? node.from.froms.map((f) => JSON.stringify(f).match(/"name":"([^"]+)"/)?.[1] ?? '?').join(',') : '';
  const into = 'into' in node && node.into ? JSON.stringify(node.into).match(/"name":"([^"]+)"/)?.[1] ?? '' : '';
  const table = 'table' in node && node.table ? JSON.stringify(node.table).match(/"name":"([^"]+)"/)?.[1] ?? '' : '';
  return `${node.kind} ${from || into || table}`.trim();
}

class CountingPlugin implements KyselyPlugin {
  statements: string[] = [];
  private readonly kinds = new Map<string, string>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (currentGraphQLCall() !== null) this.kinds.set(args.queryId.queryId, describe(args.node));
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (currentGraphQLCall() === null) return args.result;
    const kind = this.kinds.get(args.queryId.queryId);
    this.kinds.delete(args.queryId.queryId);
    // Queries compiled once (src/db/precompiled.ts) reach the plugin only here.
    this.statements.push(kind ?? 'compiled');
    return args.result;
  }
}

/**
 * Starts counting the statements GraphQL calls run through `ctx.db` (the server's
 * context: requests use it). Queries compiled once (src/db/precompiled.ts) are counted
 * too: counting happens on results, not on compilation.
 */
export function countStatements(ctx: AppContext): StatementCounter {
  const original = ctx.db;
  const plugin = new CountingPlugin();
  ctx.db = original.withPlugin(plugin) as Executor;
  return {
    get count() { return plugin.statements.length; },
    get statements() { return plugin.statements; },
    reset() { plugin.statements = []; },
    stop() { ctx.db = original; },
  };
}
