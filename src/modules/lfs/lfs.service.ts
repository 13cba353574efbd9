// Git LFS for a repository: what a batch finds, and objects' bytes in and out through
// src/git/lfs-store. Who may do what is git's own rule (git-http's authorize): reading
// objects is fetching, storing them is pushing, with every refusal that brings (the
// migration lock, archived repositories, token scopes, SSO, 404 for hidden ones).
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../domain/actor.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { isOid, lfsDir, objectSize, openObject, writeObject } from '../../git/lfs-store.ts';
import { authorize } from '../git-http/git-http.service.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { BatchRequest, BatchResult, LfsOperation, ObjectRequest, ObjectState } from './lfs.model.ts';

const RESOURCE = 'LfsObject';
const BAD_OID = 'The object id is not a SHA-256 hash in lower-case hex.';

/** The repository `owner/name` (as git names it, with or without `.git`) for the operation, or the error saying why not. */
async function repositoryFor(ctx: AppContext, actor: Actor, owner: string, name: string, operation: LfsOperation): Promise<Repo> {
  return authorize(ctx, actor, owner, name.replace(/\.git$/, ''), operation === 'upload' ? 'git-receive-pack' : 'git-upload-pack');
}

function dirOf(ctx: AppContext, repo: Repo): string {
  return lfsDir(ctx.config.dataDir, repo.id);
}

function requireOid(oid: string): void {
  if (!isOid(oid)) throw ValidationError.field(RESOURCE, 'oid', 'invalid', BAD_OID);
}

function sizeMismatch(requested: number, stored: number): string {
  return `The object is ${stored} bytes, not ${requested}.`;
}

async function stateOf(dir: string, o: ObjectRequest): Promise<ObjectState> {
  if (!isOid(o.oid)) return { ...o, state: 'invalid', message: BAD_OID };
  const stored = await objectSize(dir, o.oid);
  if (stored === null) return { ...o, state: 'missing' };
  // The oid names the content, so its size too: a pointer saying otherwise is damaged.
  if (stored !== o.size) return { ...o, state: 'invalid', message: sizeMismatch(o.size, stored) };
  return { ...o, state: 'present' };
}

/** The batch API: each requested object as the repository holds it. */
export async function batch(ctx: AppContext, actor: Actor, owner: string, name: string, request: BatchRequest): Promise<BatchResult> {
  const repo = await repositoryFor(ctx, actor, owner, name, request.operation);
  if (request.transfers?.length && !request.transfers.includes('basic')) {
    throw ValidationError.field('LfsBatch', 'transfers', 'invalid', 'Only the basic transfer adapter is served.');
  }
  // A client naming objects by another algorithm could find none of its objects here: refused whole.
  if (request.hash_algo !== undefined && request.hash_algo !== 'sha256') throw new ConflictError(`The hash algorithm ${request.hash_algo} is not supported: objects are named by sha256.`);
  const dir = dirOf(ctx, repo);
  const objects = await Promise.all(request.objects.map((o) => stateOf(dir, o)));
  return { repo, operation: request.operation, objects };
}

export interface StoredObject {
  size: number;
  stream: Readable;
}

/** An object's bytes, for a caller who may fetch the repository. */
export async function download(ctx: AppContext, actor: Actor, owner: string, name: string, oid: string): Promise<StoredObject> {
  const repo = await repositoryFor(ctx, actor, owner, name, 'download');
  requireOid(oid);
  const dir = dirOf(ctx, repo);
  const size = await objectSize(dir, oid);
  if (size === null) throw new NotFoundError('Object does not exist.');
  return { size, stream: openObject(dir, oid) };
}

/** Stores an upload as the object `oid` when its bytes hash to it; otherwise stores nothing (422). */
export async function upload(ctx: AppContext, actor: Actor, owner: string, name: string, oid: string, body: Readable): Promise<void> {
  const repo = await repositoryFor(ctx, actor, owner, name, 'upload');
  requireOid(oid);
  const written = await writeObject(dirOf(ctx, repo), oid, body);
  if (!written.stored) {
    throw ValidationError.field(RESOURCE, 'oid', 'invalid', `The content (${written.size} bytes) hashes to ${written.actualOid}, not to the object id.`);
  }
}

/** The verify action after an upload: the object is stored with the size the client sent. */
export async function verify(ctx: AppContext, actor: Actor, owner: string, name: string, object: ObjectRequest): Promise<ObjectRequest> {
  const repo = await repositoryFor(ctx, actor, owner, name, 'upload');
  requireOid(object.oid);
  const stored = await objectSize(dirOf(ctx, repo), object.oid);
  if (stored === null) throw new NotFoundError('Object does not exist.');
  if (stored !== object.size) throw ValidationError.field(RESOURCE, 'size', 'invalid', sizeMismatch(object.size, stored));
  return { oid: object.oid, size: stored };
}
