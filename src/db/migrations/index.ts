// Migrations in order. Each receives the dialect's column type for generated ids.
import { Migrator, sql, type ColumnDefinitionBuilder, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Dialect } from '../database.ts';
import * as foundation from './0001-foundation.ts';
import * as repositories from './0003-repositories.ts';
import * as collaboration from './0004-collaboration.ts';
import * as verification from './0005-verification.ts';
import * as interactionLimits from './0006-interaction-limits.ts';
import * as hooks from './0007-hooks.ts';
import * as hookDeliveries from './0012-hook-deliveries.ts';
import * as issues from './0008-issues.ts';
import * as pulls from './0009-pulls.ts';
import * as reactions from './0010-reactions.ts';
import * as notifications from './0011-notifications.ts';
import * as teamDiscussions from './0014-team-discussions.ts';
import * as deployments from './0013-deployments.ts';
import * as issueMentions from './0015-issue-mentions.ts';
import * as secretKeyCheck from './0016-secret-key-check.ts';
import * as pushJournal from './0017-push-journal.ts';
import * as openIssueCounts from './0018-open-issue-counts.ts';
import * as oauthWeb from './0019-oauth-web.ts';
import * as releases from './0020-releases.ts';
import * as minimizedComments from './0021-minimized-comments.ts';
import * as projects from './0022-projects.ts';
import * as searchIndex from './0023-search-index.ts';
import * as apps from './0024-apps.ts';
import * as runnersBilling from './0025-runners-billing.ts';
import * as branchProtection from './0027-branch-protection.ts';
import * as sshKeys from './0028-ssh-keys.ts';
import * as checks from './0030-checks.ts';
import * as sourceImports from './0031-source-imports.ts';
import * as orgSsoScim from './0032-org-sso-scim.ts';
import * as orgMigrations from './0033-org-migrations.ts';
import * as appUserTokens from './0036-app-user-tokens.ts';
import * as mergeRules from './0039-merge-rules.ts';
import * as performedViaApp from './0037-performed-via-app.ts';
import * as migrationImports from './0042-migration-imports.ts';
import * as appDeviceCodes from './0043-app-device-codes.ts';
import * as deploymentsViaApp from './0044-deployments-performed-via-app.ts';
import * as hookDeliveryRetries from './0045-hook-delivery-retries.ts';
import * as pullLastPusher from './0046-pull-last-pusher.ts';
import * as repositoryRulesets from './0047-repository-rulesets.ts';
import * as searchCodeLowered from './0048-search-code-lowered.ts';
import * as organizationRulesets from './0049-organization-rulesets.ts';
import * as searchCodeRecheck from './0050-search-code-recheck.ts';
import * as retentionIndexes from './0051-retention-indexes.ts';
import * as searchCodeCounts from './0052-search-code-counts.ts';

export interface MigrationContext {
  dialect: Dialect;
  /** Column type of an auto-generated integer primary key. */
  id: ReturnType<typeof sql.raw>;
  /** Makes that column the primary key; SQLite needs AUTOINCREMENT so ids are never reused. */
  primaryId(c: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
}

interface MigrationModule {
  up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void>;
}

const MIGRATIONS: Record<string, MigrationModule> = {
  '0001-foundation': foundation,
  '0003-repositories': repositories,
  '0004-collaboration': collaboration,
  '0005-verification': verification,
  '0006-interaction-limits': interactionLimits,
  '0007-hooks': hooks,
  '0012-hook-deliveries': hookDeliveries,
  '0008-issues': issues,
  '0009-pulls': pulls,
  '0010-reactions': reactions,
  '0011-notifications': notifications,
  '0014-team-discussions': teamDiscussions,
  '0013-deployments': deployments,
  '0015-issue-mentions': issueMentions,
  '0016-secret-key-check': secretKeyCheck,
  '0017-push-journal': pushJournal,
  '0018-open-issue-counts': openIssueCounts,
  '0019-oauth-web': oauthWeb,
  '0020-releases': releases,
  '0021-minimized-comments': minimizedComments,
  '0022-projects': projects,
  '0023-search-index': searchIndex,
  '0024-apps': apps,
  '0025-runners-billing': runnersBilling,
  '0027-branch-protection': branchProtection,
  '0028-ssh-keys': sshKeys,
  '0030-checks': checks,
  '0031-source-imports': sourceImports,
  '0032-org-sso-scim': orgSsoScim,
  '0033-org-migrations': orgMigrations,
  '0036-app-user-tokens': appUserTokens,
  '0037-performed-via-app': performedViaApp,
  '0039-merge-rules': mergeRules,
  '0042-migration-imports': migrationImports,
  '0043-app-device-codes': appDeviceCodes,
  '0044-deployments-performed-via-app': deploymentsViaApp,
  '0045-hook-delivery-retries': hookDeliveryRetries,
  '0046-pull-last-pusher': pullLastPusher,
  '0047-repository-rulesets': repositoryRulesets,
  '0048-search-code-lowered': searchCodeLowered,
  '0049-organization-rulesets': organizationRulesets,
  '0050-search-code-recheck': searchCodeRecheck,
  '0051-retention-indexes': retentionIndexes,
  '0052-search-code-counts': searchCodeCounts,
};

class InCodeProvider implements MigrationProvider {
  constructor(private readonly ctx: MigrationContext) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, m] of Object.entries(MIGRATIONS)) {
      out[name] = { up: (db) => m.up(db, this.ctx) };
    }
    return out;
  }
}

/** Brings the schema up to date; safe to run at every start and from several processes. */
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect, schema?: string): Promise<void> {
  if (dialect === 'postgres' && schema) {
    await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(db);
  }
  const ctx: MigrationContext = {
    dialect,
    id: dialect === 'postgres' ? sql.raw('integer generated by default as identity') : sql.raw('integer'),
    primaryId: (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()),
  };
  // The migration bookkeeping tables live in the schema in use: Kysely otherwise looks
  // them up across every schema and trips over another Wharf sharing the database.
  // A migration not run yet runs even when a later one has: a data dir never lacks one
  // in the middle, but the upgrade tests (test/search-code-*.test.ts) take one out to
  // stand for a data dir of before it, and Kysely would refuse any migration added after.
  const migrator = new Migrator({
    db, provider: new InCodeProvider(ctx), allowUnorderedMigrations: true, ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
