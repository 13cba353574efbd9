// Migration archive imports: a durable job that loads an organization or user
// migration archive (the layout org-migrations exports) into this Wharf.

export type ImportState = 'pending' | 'importing' | 'imported' | 'failed';
export type OnConflict = 'skip' | 'rename';

export interface ImportProgress {
  step: string;
  done: number;
  total: number;
}

/** Something of the archive that could not go in as it was. */
export interface ImportConflict {
  /** 'fork': a fork whose parent is neither in the archive nor here, imported as a plain repository ('unlinked'). */
  kind: 'repository' | 'team' | 'pull_request' | 'user' | 'project' | 'fork';
  /** The archive's name for it ("org/repo", "org/repo#3", a team's or an owner project's name, a login). */
  source: string;
  resolution: 'skipped' | 'renamed' | 'merged' | 'unlinked';
  /** Where it went, when renamed or merged. */
  target: string | null;
  message: string;
}

export interface ImportReport {
  owner: { login: string; type: 'Organization' | 'User'; created: boolean } | null;
  users: { created: string[]; mapped: string[] };
  repositories: { source: string; target: string }[];
  conflicts: ImportConflict[];
}

/** Ids of what an import created, so that a failure (or a dead importer's retry) can remove them. */
export interface CreatedIds {
  users: number[];
  organization: number | null;
  /** Memberships added to an organization that existed before. */
  memberships: { orgId: number; userId: number }[];
  teams: number[];
  repositories: number[];
  /** The owner's projects, an organization's or a user's (a repository's go with it). Absent on jobs recorded before projects were imported. */
  projects?: number[];
}

export const NOTHING_CREATED: CreatedIds = { users: [], organization: null, memberships: [], teams: [], repositories: [], projects: [] };

export interface ImportJob {
  id: number;
  createdById: number | null;
  state: ImportState;
  archivePath: string;
  /** The archive was uploaded into the data dir: removed once the job is done. */
  ownedArchive: boolean;
  targetOrg: string | null;
  onConflict: OnConflict;
  progress: ImportProgress | null;
  report: ImportReport | null;
  created: CreatedIds;
  failure: string | null;
  createdAt: string;
  updatedAt: string;
}
