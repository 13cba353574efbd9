// Organization and user migrations: an export job over an owner's repositories.

export type MigrationState = 'pending' | 'exporting' | 'exported' | 'failed';

export interface MigrationOptions {
  lockRepositories: boolean;
  excludeMetadata: boolean;
  excludeGitData: boolean;
  excludeAttachments: boolean;
  excludeReleases: boolean;
  excludeOwnerProjects: boolean;
  orgMetadataOnly: boolean;
  /** Values of `exclude` given at start (only 'repositories' is known). */
  exclude: string[];
}

/** Where an export is: the step it is on and how far through it. */
export interface MigrationProgress {
  step: string;
  done: number;
  total: number;
}

export interface Migration extends MigrationOptions {
  id: number;
  guid: string;
  ownerId: number;
  createdById: number | null;
  state: MigrationState;
  progress: MigrationProgress | null;
  failure: string | null;
  archiveFile: string | null;
  archiveSize: number | null;
  createdAt: string;
  updatedAt: string;
}
