// Webhooks as the domain sees them.

/** What a hook is set on: 'app' is a GitHub App's one webhook (target_id: the app's id). */
export type HookScope = 'repository' | 'organization' | 'app';

export const CONTENT_TYPES = ['json', 'form'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

export interface HookConfig {
  url: string;
  contentType: ContentType;
  insecureSsl: '0' | '1';
  /** Whether a secret is stored; the secret itself never leaves the store. */
  hasSecret: boolean;
}

export interface Hook {
  id: number;
  scope: HookScope;
  targetId: number;
  name: string;
  active: boolean;
  /** Event names; ["*"] is every event. */
  events: string[];
  config: HookConfig;
  lastResponse: { code: number | null; status: string; message: string | null };
  createdAt: string;
  updatedAt: string;
}

/** Whether two subscriptions share an event ("*" shares every event). */
export function eventsOverlap(a: readonly string[], b: readonly string[]): boolean {
  if (a.includes('*') || b.includes('*')) return a.length > 0 && b.length > 0;
  return a.some((e) => b.includes(e));
}

/**
 * Events Wharf records for its own consumers (notification fan-out) that have no
 * published webhook: never delivered, not even to `*` hooks.
 */
const INTERNAL_EVENTS: ReadonlySet<string> = new Set(['repository_invitation']);

export function subscribesTo(hook: Hook, event: string): boolean {
  if (INTERNAL_EVENTS.has(event)) return false;
  return hook.events.includes('*') || hook.events.includes(event);
}

/** How a delivery stands: waiting, being attempted, or finished either way. */
export type DeliveryState = 'pending' | 'in_progress' | 'delivered' | 'failed';

/** How one attempt ended. */
export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'refused';

export interface Delivery {
  id: number;
  hookId: number;
  guid: string;
  event: string;
  action: string | null;
  repositoryId: number | null;
  installationId: number | null;
  redelivery: boolean;
  state: DeliveryState;
  attempts: number;
  createdAt: string;
  /** When the latest attempt was made (the creation time before any). */
  deliveredAt: string;
  /** Seconds the latest attempt took. */
  duration: number;
  url: string | null;
  status: string;
  statusCode: number;
}

export interface DeliveryDetail extends Delivery {
  requestHeaders: Record<string, string> | null;
  requestPayload: Record<string, unknown>;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
}

export interface DeliveryAttempt {
  attempt: number;
  outcome: AttemptOutcome;
  deliveredAt: string;
  duration: number;
  url: string;
  status: string;
  statusCode: number;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
}
