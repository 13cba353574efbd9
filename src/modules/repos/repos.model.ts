// A repository as the domain sees it.
import type { Visibility } from '../../db/schema.ts';
import type { Account } from '../users/users.model.ts';

export type { Visibility };

/** Repository roles, weakest first. */
export const ROLES = ['pull', 'triage', 'push', 'maintain', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function roleAtLeast(role: Role | null, needed: Role): boolean {
  return role !== null && ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

export function strongest(...roles: (Role | null | undefined)[]): Role | null {
  let best: Role | null = null;
  for (const r of roles) if (r && (best === null || ROLES.indexOf(r) > ROLES.indexOf(best))) best = r;
  return best;
}

/** Custom repository roles inherit one of the five base roles; unknown names read as pull. */
export function baseRole(permission: string): Role {
  return ROLES.find((r) => r === permission) ?? 'pull';
}

export interface RepoSettings {
  description: string | null;
  homepage: string | null;
  visibility: Visibility;
  defaultBranch: string;
  topics: string[];
  isTemplate: boolean;
  hasIssues: boolean;
  hasProjects: boolean;
  hasWiki: boolean;
  hasDownloads: boolean;
  hasDiscussions: boolean;
  hasPages: boolean;
  archived: boolean;
  disabled: boolean;
  allowSquashMerge: boolean;
  allowMergeCommit: boolean;
  allowRebaseMerge: boolean;
  allowAutoMerge: boolean;
  allowUpdateBranch: boolean;
  allowForking: boolean;
  deleteBranchOnMerge: boolean;
  webCommitSignoffRequired: boolean;
  squashMergeCommitTitle: string;
  squashMergeCommitMessage: string;
  mergeCommitTitle: string;
  mergeCommitMessage: string;
}

export interface RepoRecord extends RepoSettings {
  id: number;
  ownerId: number;
  name: string;
  isFork: boolean;
  parentId: number | null;
  sourceId: number | null;
  templateId: number | null;
  licenseKey: string | null;
  language: string | null;
  sizeKb: number;
  pushedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** An organization or user migration holds the repository locked: every write is refused. */
  lockedForMigration: boolean;
}

export interface RepoCounts {
  stargazers: number;
  forks: number;
  subscribers: number;
  openIssues: number;
}

/** A repository with its owner loaded, as services hand it to views. */
export interface Repo extends RepoRecord {
  owner: Account;
}

/** The default branch of a new repository (organization records show it as default_repository_branch). */
export const NEW_REPOSITORY_BRANCH = 'main';
