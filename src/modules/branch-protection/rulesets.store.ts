// SQL for rulesets, a repository's or an organization's (one table, one sequence of
// ids, as upstream). Only the branch-protection module calls this.
import type { Generated } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { BypassActor, Enforcement, RefNameCondition, RepositoryCondition, RuleEntry, Ruleset, Target } from './rulesets.model.ts';

export interface RepositoryRulesetsTable {
  id: Generated<number>;
  repository_id: number | null;
  organization_id: number | null;
  name: string;
  target: string;
  enforcement: string;
  bypass_actors: string;
  conditions: string | null;
  repository_conditions: string | null;
  rules: string;
  created_at: string;
  updated_at: string;
}

declare module '../../db/schema.ts' {
  interface Database {
    repository_rulesets: RepositoryRulesetsTable;
  }
}

const COLUMNS = [
  'id', 'repository_id', 'organization_id', 'name', 'target', 'enforcement', 'bypass_actors', 'conditions', 'repository_conditions', 'rules', 'created_at', 'updated_at',
] as const;

/** Whose rulesets: a repository's own, or an organization's. */
export type Owner = { repositoryId: number } | { organizationId: number };

const ownerColumn = (o: Owner) => ('repositoryId' in o ? { column: 'repository_id' as const, id: o.repositoryId } : { column: 'organization_id' as const, id: o.organizationId });

type Row = Omit<RepositoryRulesetsTable, 'id'> & { id: number };

function toRuleset(r: Row): Ruleset {
  return {
    id: Number(r.id), name: r.name,
    repositoryId: r.repository_id === null ? null : Number(r.repository_id),
    organizationId: r.organization_id === null ? null : Number(r.organization_id),
    target: r.target as Target, enforcement: r.enforcement as Enforcement,
    bypassActors: JSON.parse(r.bypass_actors) as BypassActor[],
    conditions: r.conditions === null ? null : { refName: JSON.parse(r.conditions) as RefNameCondition },
    repositoryCondition: r.repository_conditions === null ? null : JSON.parse(r.repository_conditions) as RepositoryCondition,
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
  repositoryCondition: RepositoryCondition | null;
  rules: RuleEntry[];
}

function columns(f: RulesetFields) {
  return {
    name: f.name, target: f.target, enforcement: f.enforcement, bypass_actors: JSON.stringify(f.bypassActors),
    conditions: f.conditions ? JSON.stringify(f.conditions.refName) : null, rules: JSON.stringify(f.rules),
    repository_conditions: f.repositoryCondition ? JSON.stringify(f.repositoryCondition) : null,
  };
}

/** The owner's rulesets by id; `enforcement` keeps only those of that level. */
export async function list(db: Executor, owner: Owner, o: { enforcement?: Enforcement } = {}): Promise<Ruleset[]> {
  const { column, id } = ownerColumn(owner);
  let q = db.selectFrom('repository_rulesets').select(COLUMNS).where(column, '=', id);
  if (o.enforcement) q = q.where('enforcement', '=', o.enforcement);
  return (await q.orderBy('id').execute()).map(toRuleset);
}

export async function findById(db: Executor, owner: Owner, rulesetId: number): Promise<Ruleset | null> {
  const { column, id } = ownerColumn(owner);
  const row = await db.selectFrom('repository_rulesets').select(COLUMNS).where(column, '=', id).where('id', '=', rulesetId).executeTakeFirst();
  return row ? toRuleset(row) : null;
}

/** A ruleset by id alone, whoever owns it. */
export async function findAnyById(db: Executor, id: number): Promise<Ruleset | null> {
  const row = await db.selectFrom('repository_rulesets').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toRuleset(row) : null;
}

export async function findByName(db: Executor, owner: Owner, name: string): Promise<Ruleset | null> {
  const { column, id } = ownerColumn(owner);
  const row = await db.selectFrom('repository_rulesets').select(COLUMNS).where(column, '=', id).where('name', '=', name).executeTakeFirst();
  return row ? toRuleset(row) : null;
}

export async function insert(db: Executor, owner: Owner, f: RulesetFields, now: string): Promise<Ruleset> {
  const row = await db.insertInto('repository_rulesets')
    .values({
      repository_id: 'repositoryId' in owner ? owner.repositoryId : null,
      organization_id: 'organizationId' in owner ? owner.organizationId : null,
      ...columns(f), created_at: now, updated_at: now,
    })
    .returning(COLUMNS).executeTakeFirstOrThrow();
  return toRuleset(row);
}

export async function update(db: Executor, owner: Owner, rulesetId: number, f: RulesetFields, now: string): Promise<Ruleset | null> {
  const { column, id } = ownerColumn(owner);
  await db.updateTable('repository_rulesets').set({ ...columns(f), updated_at: now })
    .where(column, '=', id).where('id', '=', rulesetId).execute();
  return findById(db, owner, rulesetId);
}

export async function remove(db: Executor, owner: Owner, rulesetId: number): Promise<boolean> {
  const { column, id } = ownerColumn(owner);
  const result = await db.deleteFrom('repository_rulesets').where(column, '=', id).where('id', '=', rulesetId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A unique index refused the row: another ruleset of the repository has the name. */
export function isDuplicate(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
