// Import job → API representation (also what the CLI prints as its report).
import type { Urls } from '../../urls.ts';
import type { ImportJob } from './import.model.ts';
import type { MigrationImport } from './import.schemas.ts';

export function importView(job: ImportJob, urls: Urls): MigrationImport {
  const r = job.report;
  return {
    id: job.id,
    url: urls.api('admin', 'migrations', 'imports', String(job.id)),
    state: job.state,
    org: job.targetOrg,
    on_conflict: job.onConflict,
    progress: job.progress,
    failure: job.failure,
    owner: r?.owner ?? null,
    users: r?.users ?? { created: [], mapped: [] },
    repositories: r?.repositories ?? [],
    conflicts: r?.conflicts ?? [],
    created_at: job.createdAt,
    updated_at: job.updatedAt,
  };
}
