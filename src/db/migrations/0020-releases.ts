// Releases of a repository and the files (assets) uploaded to them. Asset bytes live
// under the data directory (release-assets/), not in the database: a row holds what
// the API shows about the file.
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, primaryId }: MigrationContext): Promise<void> {
  await db.schema.createTable('releases')
    .addColumn('id', id, primaryId)
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('tag_name', 'text', (c) => c.notNull())
    .addColumn('target_commitish', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('body', 'text')
    .addColumn('draft', 'integer', (c) => c.notNull())
    .addColumn('prerelease', 'integer', (c) => c.notNull())
    // make_latest as last given: 'true', 'false' or 'legacy'.
    .addColumn('make_latest', 'text', (c) => c.notNull())
    // Rises each time a release is made latest explicitly; the highest wins.
    .addColumn('latest_order', 'integer', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('published_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One release per tag: the second one is upstream's already_exists.
  await db.schema.createIndex('releases_repository_tag').unique().on('releases').columns(['repository_id', 'tag_name']).execute();
  await db.schema.createIndex('releases_repository').on('releases').columns(['repository_id', 'created_at', 'id']).execute();

  await db.schema.createTable('release_assets')
    .addColumn('id', id, primaryId)
    .addColumn('release_id', 'integer', (c) => c.notNull().references('releases.id').onDelete('cascade'))
    .addColumn('repository_id', 'integer', (c) => c.notNull().references('repositories.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    // "sha256:<hex>" of the bytes, as upstream's digest.
    .addColumn('digest', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('download_count', 'integer', (c) => c.notNull())
    .addColumn('uploader_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('release_assets_release_name').unique().on('release_assets').columns(['release_id', 'name']).execute();
}
