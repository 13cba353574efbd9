// SQL for repository rulesets. Only the branch-protection module calls this.
import type { Generated } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { BypassActor, Enforcement, RefNameCondition, RuleEntry, Ruleset, Target } from './rulesets.model.ts';

export interface RepositoryRulesetsTable {
  id: Generated<number>;
  repository_id: number;
  name: string;
  target: string;
  enforcement: string;
  bypass_actors: string;
  conditions: string | null;
  rules: string;
  created_at: string;
  updated_at: string;
}

declare module '../../db/schema.ts' {
  interface Database {
    repository_rulesets: RepositoryRulesetsTable;
  }
}

const COLUMNS = ['id', 'repository_id', 'name', 'target', 'enforcement', 'bypass_actors', 'conditions', 'rules', 'created_at', 'updated_at'] as const;

type Row = Omit<RepositoryRulesetsTable, 'id'> & { id: number };

function toRuleset(r: Row): Ruleset {
  return {
    id: Number(r.id), repositoryId: Number(r.repository_id), name: r.name,
    target: r.target as Target, enforcement: r.enforcement as Enforcement,
    bypassActors: JSON.parse(r.bypass_actors) as BypassActor[],
    conditions: r.conditions === null ? null : { refName: JSON.parse(r.conditions) as RefNameCondition },
    rules: JSON.parse(r.rules) as RuleEntry[],
    createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

export interface RulesetFields {
  name: string;
  target: Target;
  enforcement: Enforcement;
  bypassActors: BypassActor[];
  conditions: { refName: RefNameCondition } | null;
  rules: RuleEntry[];
}

function columns(f: RulesetFields) {
  return {
    name: f.name, target: f.target, enforcement: f.enforcement, bypass_actors: JSON.stringify(f.bypassActors),
    conditions: f.conditions ? JSON.stringify(f.conditions.refName) : null, rules: JSON.stringify(f.rules),
  };
}

/** The repository's rulesets by id; `enforcement` keeps only those of that level. */
export async function list(db: Executor, repositoryId: number, o: { enforcement?: Enforcement } = {}): Promise<Ruleset[]> {
  let q = db.selectFrom('repository_rulesets').select(COLUMNS).where('repository_id', '=', repositoryId);
  if (o.enforcement) q = q.where('enforcement', '=', o.enforcement);
  return (await q.orderBy('id').execute()).map(toRuleset);
}

export async function findById(db: Executor, repositoryId: number, id: number): Promise<Ruleset | null> {
  const row = await db.selectFrom('repository_rulesets').select(COLUMNS).where('repository_id', '=', repositoryId).where('id', '=', id).executeTakeFirst();
  return row ? toRuleset(row) : null;
}

export async function findAnyById(db: Executor, id: number): Promise<Ruleset | null> {
  const row = await db.selectFrom('repository_rulesets').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toRuleset(row) : null;
}

export async function findByName(db: Executor, repositoryId: number, name: string): Promise<Ruleset | null> {
  const row = await db.selectFrom('repository_rulesets').select(COLUMNS).where('repository_id', '=', repositoryId).where('name', '=', name).executeTakeFirst();
  return row ? toRuleset(row) : null;
}

export async function insert(db: Executor, repositoryId: number, f: RulesetFields, now: string): Promise<Ruleset> {
  const row = await db.insertInto('repository_rulesets')
    .values({ repository_id: repositoryId, ...columns(f), created_at: now, updated_at: now })
    .returning(COLUMNS).executeTakeFirstOrThrow();
  return toRuleset(row);
}

export async function update(db: Executor, repositoryId: number, id: number, f: RulesetFields, now: string): Promise<Ruleset | null> {
  await db.updateTable('repository_rulesets').set({ ...columns(f), updated_at: now })
    .where('repository_id', '=', repositoryId).where('id', '=', id).execute();
  return findById(db, repositoryId, id);
}

export async function remove(db: Executor, repositoryId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('repository_rulesets').where('repository_id', '=', repositoryId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A unique index refused the row: another ruleset of the repository has the name. */
export function isDuplicate(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
