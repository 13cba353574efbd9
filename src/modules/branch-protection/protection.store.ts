// SQL for branch protection rules. Only the branch-protection module calls this.
import type { Generated } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { BranchRules, ProtectionRule } from './protection.model.ts';

export interface BranchProtectionsTable {
  id: Generated<number>;
  repository_id: number;
  pattern: string;
  rules: string;
  created_at: string;
  updated_at: string;
}

declare module '../../db/schema.ts' {
  interface Database {
    branch_protections: BranchProtectionsTable;
  }
}

const COLUMNS = ['id', 'repository_id', 'pattern', 'rules', 'created_at', 'updated_at'] as const;

function toRule(r: { id: number; repository_id: number; pattern: string; rules: string; created_at: string; updated_at: string }): ProtectionRule {
  return {
    id: Number(r.id), repositoryId: Number(r.repository_id), pattern: r.pattern,
    rules: JSON.parse(r.rules) as BranchRules, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

export async function listRules(db: Executor, repositoryId: number): Promise<ProtectionRule[]> {
  const rows = await db.selectFrom('branch_protections').select(COLUMNS).where('repository_id', '=', repositoryId).orderBy('id').execute();
  return rows.map(toRule);
}

/** The rule of `pattern`; `lock` takes its row FOR UPDATE (PostgreSQL, in a transaction). */
export async function findRule(db: Executor, repositoryId: number, pattern: string, o: { lock?: boolean } = {}): Promise<ProtectionRule | null> {
  const q = db.selectFrom('branch_protections').select(COLUMNS)
    .where('repository_id', '=', repositoryId).where('pattern', '=', pattern);
  const row = await (o.lock ? q.forUpdate() : q).executeTakeFirst();
  return row ? toRule(row) : null;
}

/** Writes the rule of `pattern` whole (insert or replace). */
export async function putRule(db: Executor, repositoryId: number, pattern: string, rules: BranchRules, now: string): Promise<void> {
  await db.insertInto('branch_protections')
    .values({ repository_id: repositoryId, pattern, rules: JSON.stringify(rules), created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['repository_id', 'pattern']).doUpdateSet({ rules: JSON.stringify(rules), updated_at: now }))
    .execute();
}

export async function deleteRule(db: Executor, repositoryId: number, pattern: string): Promise<boolean> {
  const result = await db.deleteFrom('branch_protections').where('repository_id', '=', repositoryId).where('pattern', '=', pattern).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
