// Releases and their assets as the domain sees them.
import type { Repo } from '../repos/repos.model.ts';

export const MAKE_LATEST = ['true', 'false', 'legacy'] as const;
export type MakeLatest = (typeof MAKE_LATEST)[number];

export const ASSET_STATES = ['uploaded', 'open'] as const;
export type AssetState = (typeof ASSET_STATES)[number];

export interface Release {
  id: number;
  repositoryId: number;
  tagName: string;
  targetCommitish: string;
  name: string | null;
  body: string | null;
  draft: boolean;
  prerelease: boolean;
  makeLatest: MakeLatest;
  /** Order among releases made latest explicitly (0: never). */
  latestOrder: number;
  authorId: number | null;
  createdAt: string;
  /** Null while a draft. */
  publishedAt: string | null;
  updatedAt: string;
}

export interface ReleaseAsset {
  id: number;
  releaseId: number;
  repositoryId: number;
  name: string;
  label: string | null;
  contentType: string;
  size: number;
  digest: string;
  state: AssetState;
  downloadCount: number;
  uploaderId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** A release with its repository: what the service answers, REST and GraphQL alike. */
export interface ReleaseRecord {
  repo: Repo;
  release: Release;
}

export interface AssetRecord extends ReleaseRecord {
  asset: ReleaseAsset;
}

/** A tag with the commit it names. */
export interface TagRecord {
  repo: Repo;
  name: string;
  commit: string;
}

/**
 * Upstream renames an uploaded file whose name has characters other than letters,
 * digits and a few marks: each run of them becomes one ".", and leading or trailing
 * dots go ("my file (1).zip" → "my.file.1.zip").
 */
export function sanitizeAssetName(name: string): string {
  return name.replace(/[^A-Za-z0-9._+@-]+/g, '.').replace(/\.{2,}/g, '.').replace(/^\.+|\.+$/g, '');
}
