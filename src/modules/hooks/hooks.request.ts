// The HTTP request of one delivery: body in the hook's content type, and the headers
// receivers read (event, delivery GUID, hook, target, signatures). Pure.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { signatureHeaders } from './hooks.signature.ts';

// Upstream's User-Agent is "GitHub-Hookshot/<short build id>"; ours names the version.
const VERSION = (createRequire(import.meta.url)('../../../package.json') as { version: string }).version;
export const USER_AGENT = `Wharf-Hookshot/${createHash('sha1').update(VERSION).digest('hex').slice(0, 7)}`;

export interface RequestInput {
  guid: string;
  event: string;
  hookId: number;
  /** repository, organization or integration (an app's hook), with that record's id. */
  targetType: 'repository' | 'organization' | 'integration';
  targetId: number;
  contentType: 'json' | 'form';
  secret: string | null;
  /** The payload as JSON text. */
  payload: string;
}

export interface OutgoingRequest {
  body: string;
  headers: Record<string, string>;
}

export function buildRequest(r: RequestInput): OutgoingRequest {
  // Form deliveries carry the JSON in a `payload` field, as upstream.
  const body = r.contentType === 'form' ? new URLSearchParams({ payload: r.payload }).toString() : r.payload;
  const headers: Record<string, string> = {
    Accept: '*/*',
    'content-type': r.contentType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
    'User-Agent': USER_AGENT,
    'X-Service-Delivery': r.guid,
    'X-Service-Event': r.event,
    'X-Service-Hook-ID': String(r.hookId),
    'X-Service-Hook-Installation-Target-ID': String(r.targetId),
    'X-Service-Hook-Installation-Target-Type': r.targetType,
    // The same under upstream's names, as requests may say X-GitHub-Api-Version: receivers
    // written for upstream (@octokit/webhooks' middleware reads X-GitHub-Event and
    // X-GitHub-Delivery) work unchanged.
    'X-GitHub-Delivery': r.guid,
    'X-GitHub-Event': r.event,
    'X-GitHub-Hook-ID': String(r.hookId),
    'X-GitHub-Hook-Installation-Target-ID': String(r.targetId),
    'X-GitHub-Hook-Installation-Target-Type': r.targetType,
    ...(r.secret ? signatureHeaders(r.secret, body) : {}),
  };
  return { body, headers };
}
