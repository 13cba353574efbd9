// Hot queries compiled once. Building and compiling a Kysely query costs more than
// running a small one on SQLite, so the few queries every request runs (token
// lookup, rate-limit counter, account by login) are compiled with placeholder
// arguments on first use and then run with the real arguments substituted. Once per
// dialect: a process that opens SQLite and PostgreSQL (the reliability runner's
// in-process suites, one after the other) must not send one dialect's SQL to the other.
import { CompiledQuery, type Compilable } from 'kysely';
import type { Executor } from './database.ts';

type Arg = string | number | null;

export interface Precompiled<A extends Arg[], R> {
  (db: Executor, ...args: A): Promise<R[]>;
}

/**
 * `build` must use each argument only as a whole query parameter (no arithmetic or
 * string building on it): the compiled parameters are matched back to arguments by identity.
 */
export function precompile<A extends Arg[], R>(arity: A['length'], build: (db: Executor, ...args: A) => Compilable<R>): Precompiled<A, R> {
  type Compiled = { sql: string; query: CompiledQuery['query']; slots: ({ arg: number } | { value: unknown })[] };
  /** By the dialect's adapter class (one entry in a process that uses one database). */
  const byDialect = new Map<unknown, Compiled>();
  return async (db, ...args) => {
    const dialect = db.getExecutor().adapter.constructor;
    let compiled = byDialect.get(dialect);
    if (!compiled) {
      const markers = Array.from({ length: arity }, (_, i) => `\u0000wharf-arg-${i}\u0000`) as unknown as A;
      const c = build(db, ...markers).compile();
      const slots = c.parameters.map((p) => {
        const i = typeof p === 'string' ? markers.indexOf(p as never) : -1;
        return i >= 0 ? { arg: i } : { value: p };
      });
      const used = new Set(slots.flatMap((s) => ('arg' in s ? [s.arg] : [])));
      if (used.size !== arity) throw new Error('precompile: every argument must appear as a query parameter');
      compiled = { sql: c.sql, query: c.query, slots };
      byDialect.set(dialect, compiled);
    }
    const parameters = compiled.slots.map((s) => ('arg' in s ? args[s.arg] : s.value));
    const result = await db.executeQuery<R>(CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<R>);
    return result.rows;
  };
}
