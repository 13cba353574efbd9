// Migration → API representation (upstream's migration). Pure.
import type { Static } from '@sinclair/typebox';
import { encodeNodeId } from '../../domain/node-id.ts';
import type { Urls } from '../../urls.ts';
import type { Presentable } from '../repos/repos.service.ts';
import { repository } from '../repos/repos.views.ts';
import { licenseSimple } from '../templates/templates.views.ts';
import type { Account } from '../users/users.model.ts';
import { simpleUser } from '../users/users.views.ts';
import type { Migration as MigrationRecord } from './migrations.model.ts';
import type { Migration as MigrationSchema } from './migrations.schemas.ts';

export type MigrationView = Static<typeof MigrationSchema>;

export function repositoryView(p: Presentable, urls: Urls, previews: ReadonlySet<string>) {
  return repository(p.repo, {
    urls, counts: p.counts, role: p.role, previews,
    license: p.repo.licenseKey ? licenseSimple(p.repo.licenseKey, urls) : null,
  });
}

export function migrationView(
  m: MigrationRecord, owner: Account, repositories: readonly Presentable[] | null, urls: Urls, previews: ReadonlySet<string>,
): MigrationView {
  const url = owner.type === 'Organization' ? urls.api('orgs', owner.login, 'migrations', m.id) : urls.api('user', 'migrations', m.id);
  return {
    id: m.id,
    node_id: encodeNodeId('Migration', m.id),
    owner: simpleUser(owner, urls),
    guid: m.guid,
    state: m.state,
    lock_repositories: m.lockRepositories,
    exclude_metadata: m.excludeMetadata,
    exclude_git_data: m.excludeGitData,
    exclude_attachments: m.excludeAttachments,
    exclude_releases: m.excludeReleases,
    exclude_owner_projects: m.excludeOwnerProjects,
    org_metadata_only: m.orgMetadataOnly,
    repositories: repositories ? repositories.map((p) => repositoryView(p, urls, previews)) : [],
    url,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    ...(m.state === 'exported' && m.archiveFile ? { archive_url: `${url}/archive` } : {}),
    exclude: m.exclude,
    progress: m.progress,
    failure: m.failure,
  };
}
