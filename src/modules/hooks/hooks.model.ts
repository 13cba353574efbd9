// Webhooks as the domain sees them.

/** What a hook is set on. */
export type HookScope = 'repository' | 'organization';

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

export function subscribesTo(hook: Hook, event: string): boolean {
  return hook.events.includes('*') || hook.events.includes(event);
}
