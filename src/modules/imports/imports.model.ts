// A source import as the imports module keeps it (one per repository).
export const IMPORT_VCS = ['subversion', 'git', 'mercurial', 'tfvc'] as const;
export type SourceVcs = (typeof IMPORT_VCS)[number];

export type ImportStep = 'detect' | 'import' | 'map' | 'push';

/** The spec's status names (Source import `status`). */
export type ImportStatus =
  | 'detecting' | 'importing' | 'mapping' | 'pushing' | 'complete' | 'auth_failed' | 'error'
  | 'detection_needs_auth' | 'detection_found_nothing' | 'detection_found_multiple';

export type LfsPreference = 'opt_in' | 'opt_out' | 'undecided';

export interface ProjectChoice {
  vcs: string;
  tfvc_project: string | null;
  human_name: string;
  /** Path below vcs_url (not shown). */
  path: string;
}

export interface SourceImport {
  repositoryId: number;
  actorId: number | null;
  vcs: SourceVcs | null;
  vcsUrl: string;
  tfvcProject: string | null;
  projectPath: string | null;
  status: ImportStatus;
  statusText: string | null;
  failedStep: string | null;
  percent: number | null;
  commitCount: number | null;
  pushPercent: number | null;
  authorsCount: number | null;
  hasLargeFiles: boolean;
  largeFilesSize: number;
  largeFilesCount: number;
  useLfs: LfsPreference;
  projectChoices: ProjectChoice[] | null;
  /** Sealed vcs_username/vcs_password; never leaves the module. */
  credentials: string | null;
  nextStep: ImportStep | null;
  generation: number;
  createdAt: string;
  updatedAt: string;
}

export interface ImportAuthor {
  id: number;
  repositoryId: number;
  remoteId: string;
  remoteName: string;
  email: string;
  name: string;
}

export interface ImportLargeFile {
  refName: string;
  path: string;
  oid: string;
  size: number;
}
