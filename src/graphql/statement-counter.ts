// Counting the SQL statements GraphQL calls run, for tests that hold GraphQL to a
// constant number of queries per request whatever the page size (batching through
// loaders). While a counter is on, each GraphQL call runs with a context whose database
// handle carries the counting plugin (callContext below); every query the resolvers
// and their loaders run through that context (transactions included) is counted: not
// the background workers', which keep the server's own context, nor authentication's
// before the call. A per-call context, not AsyncLocalStorage: the storage switches on
// promise hooks for the whole process, and every promise of every request paid for them.
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/database.ts';

export interface StatementCounter {
  /** Statements GraphQL calls ran since the counter started or was last reset. */
  readonly count: number;
  /** What each was (query kind and table, or "compiled"), in order, for the message of a failing assertion. */
  readonly statements: readonly string[];
  reset(): void;
  /** Stops counting. */
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
    this.kinds.set(args.queryId.queryId, describe(args.node));
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const kind = this.kinds.get(args.queryId.queryId);
    this.kinds.delete(args.queryId.queryId);
    // Queries compiled once (src/db/precompiled.ts) reach the plugin only here.
    this.statements.push(kind ?? 'compiled');
    return args.result;
  }
}

const counting = new WeakMap<AppContext, CountingPlugin>();

/** The context one GraphQL call runs with: the server's, or a counting copy while a counter is on. */
export function callContext(ctx: AppContext): AppContext {
  const plugin = counting.get(ctx);
  return plugin ? { ...ctx, db: ctx.db.withPlugin(plugin) as Executor } : ctx;
}

/** A counter is on: calls then execute even when their answer is kept (answers.ts), so that it sees what they run. */
export function countingStatements(ctx: AppContext): boolean {
  return counting.has(ctx);
}

/**
 * Starts counting the statements GraphQL calls run with the server's context `ctx`.
 * Queries compiled once (src/db/precompiled.ts) are counted too: counting happens on
 * results, not on compilation.
 */
export function countStatements(ctx: AppContext): StatementCounter {
  const plugin = new CountingPlugin();
  counting.set(ctx, plugin);
  return {
    get count() { return plugin.statements.length; },
    get statements() { return plugin.statements; },
    reset() { plugin.statements = []; },
    stop() { if (counting.get(ctx) === plugin) counting.delete(ctx); },
  };
}
