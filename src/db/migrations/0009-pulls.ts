// Pull requests: the git side of an issue (is_pull_request = 1) — which branch of
// which repository goes into which branch — plus reviews, review requests and
// review comments. Title, body, state, labels … stay on the issue row.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('pull_requests')
    .addColumn('id', id, primaryId)
    .addColumn('issue_id', 'integer', (c) => c.notNull().unique().references('issues.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    // A deleted fork leaves its pull requests without a head repository, as upstream.
    .addColumn('head_repository_id', 'integer', (c) => c.references('repositories.id').onDelete('set null'))
    .addColumn('head_ref', 'text', (c) => c.notNull())
    .addColumn('head_sha', 'text', (c) => c.notNull())
    .addColumn('base_ref', 'text', (c) => c.notNull())
    .addColumn('base_sha', 'text', (c) => c.notNull())
    .addColumn('merge_base_sha', 'text')
    .addColumn('draft', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('maintainer_can_modify', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('merged_at', 'text')
    .addColumn('merged_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('merge_commit_sha', 'text')
    // Mergeability is computed from git for one (head, base) pair of commits and kept
    // until either moves: these say for which pair the cached answer holds.
    .addColumn('mergeable', 'integer')
    .addColumn('rebaseable', 'integer')
    .addColumn('checked_head_sha', 'text')
    .addColumn('checked_base_sha', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('pull_requests_repository_number', ['repository_id', 'number'])
    .execute();
  await db.schema.createIndex('pull_requests_head').on('pull_requests').columns(['head_repository_id', 'head_ref']).execute();
  await db.schema.createIndex('pull_requests_base').on('pull_requests').columns(['repository_id', 'base_ref']).execute();

  await db.schema.createTable('pull_request_reviews')
    .addColumn('id', id, primaryId)
    .addColumn('pull_request_id', 'integer', (c) => c.notNull().references('pull_requests.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // PENDING, APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('commit_id', 'text', (c) => c.notNull())
    .addColumn('submitted_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pull_request_reviews_pull').on('pull_request_reviews').columns(['pull_request_id', 'id']).execute();

  // One row per requested user or team (exactly one of the two is set).
  await db.schema.createTable('review_requests')
    .addColumn('id', id, primaryId)
    .addColumn('pull_request_id', 'integer', (c) => c.notNull().references('pull_requests.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'integer', (c) => c.references('teams.id').onDelete('cascade'))
    .addColumn('requested_by_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('review_requests_user', ['pull_request_id', 'user_id'])
    .addUniqueConstraint('review_requests_team', ['pull_request_id', 'team_id'])
    .execute();

  await db.schema.createTable('pull_request_review_comments')
    .addColumn('id', id, primaryId)
    .addColumn('pull_request_id', 'integer', (c) => c.notNull().references('pull_requests.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('review_id', 'integer', (c) => c.notNull().references('pull_request_reviews.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('in_reply_to_id', 'integer')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('commit_id', 'text', (c) => c.notNull())
    .addColumn('original_commit_id', 'text', (c) => c.notNull())
    .addColumn('diff_hunk', 'text', (c) => c.notNull())
    .addColumn('position', 'integer')
    .addColumn('original_position', 'integer')
    .addColumn('line', 'integer')
    .addColumn('original_line', 'integer')
    .addColumn('side', 'text')
    .addColumn('start_line', 'integer')
    .addColumn('original_start_line', 'integer')
    .addColumn('start_side', 'text')
    // line or file
    .addColumn('subject_type', 'text', (c) => c.notNull().defaultTo('line'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('review_comments_pull').on('pull_request_review_comments').columns(['pull_request_id', 'id']).execute();
  await db.schema.createIndex('review_comments_repository').on('pull_request_review_comments').columns(['repository_id', 'id']).execute();
  await db.schema.createIndex('review_comments_review').on('pull_request_review_comments').columns(['review_id', 'id']).execute();
}
