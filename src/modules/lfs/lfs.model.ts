// What the Git LFS service answers: per requested object, whether the repository holds it.
import type { Repo } from '../repos/repos.model.ts';

export type LfsOperation = 'download' | 'upload';

export interface ObjectRequest {
  oid: string;
  size: number;
}

export interface BatchRequest {
  operation: LfsOperation;
  /** Transfer adapters the client knows; none named means basic (batch.md). */
  transfers?: readonly string[];
  objects: readonly ObjectRequest[];
  hash_algo?: string;
}

/** One requested object as the repository has it. */
export type ObjectState =
  /** Stored, `size` bytes. */
  | { oid: string; size: number; state: 'present' }
  /** Not stored: a download finds nothing, an upload is wanted. */
  | { oid: string; size: number; state: 'missing' }
  /** The request names no object this repository could hold (a malformed oid, a size that is not the stored one). */
  | { oid: string; size: number; state: 'invalid'; message: string };

export interface BatchResult {
  repo: Repo;
  operation: LfsOperation;
  objects: ObjectState[];
}
