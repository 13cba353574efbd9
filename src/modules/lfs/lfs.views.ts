// Batch answers and errors in the forms git-lfs reads (docs/api/batch.md, basic-transfers.md).
import type { Urls } from '../../urls.ts';
import type { Repo } from '../repos/repos.model.ts';
import type { BatchResult, ObjectState } from './lfs.model.ts';
import type { BatchObject, BatchResponse, LfsAction, LfsErrorBody } from './lfs.schemas.ts';

export const LFS_MEDIA_TYPE = 'application/vnd.git-lfs+json';

/**
 * Nothing an action names expires on Wharf's side (its href authenticates as any request
 * does); this only bounds how long a client reuses one batch answer before asking
 * again, and so having its access checked again.
 */
const ACTION_EXPIRES_IN = 3600;

/** The repository's LFS endpoint: git-lfs's default for the clone URL, `{clone_url}/info/lfs`. */
export function lfsEndpoint(urls: Urls, repo: Repo): string {
  return `${urls.html(repo.owner.login, repo.name)}.git/info/lfs`;
}

function action(href: string, authorization: string | undefined): LfsAction {
  return { href, ...(authorization ? { header: { Authorization: authorization } } : {}), expires_in: ACTION_EXPIRES_IN };
}

function objectView(endpoint: string, result: BatchResult, o: ObjectState, authorization: string | undefined): BatchObject {
  const base = { oid: o.oid, size: o.size };
  if (o.state === 'invalid') return { ...base, error: { code: 422, message: o.message } };
  if (result.operation === 'download') {
    if (o.state === 'missing') return { ...base, error: { code: 404, message: 'Object does not exist.' } };
    return { ...base, authenticated: true, actions: { download: action(`${endpoint}/objects/${o.oid}`, authorization) } };
  }
  // batch.md: an object the server already has gets no actions; the client skips it.
  if (o.state === 'present') return base;
  return {
    ...base, authenticated: true,
    actions: { upload: action(`${endpoint}/objects/${o.oid}`, authorization), verify: action(`${endpoint}/verify`, authorization) },
  };
}

/**
 * The batch answer. `authorization` is the request's own Authorization header, handed
 * back for the actions (authenticated: true) so the client sends the very credentials
 * this answer was given for, without asking its credential helper again.
 */
export function batchResponse(urls: Urls, result: BatchResult, authorization: string | undefined): BatchResponse {
  const endpoint = lfsEndpoint(urls, result.repo);
  return { transfer: 'basic', objects: result.objects.map((o) => objectView(endpoint, result, o, authorization)), hash_algo: 'sha256' };
}

/** A failure; the request id is the one Wharf logs and sends as X-Service-Request-Id. */
export function lfsErrorBody(message: string, requestId: string): LfsErrorBody {
  return { message, request_id: requestId };
}
