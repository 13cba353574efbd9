// Interaction limits → API representation. Pure.
import type { InteractionGroup, InteractionLimit, LimitScope } from './interactions.model.ts';

export interface InteractionLimitView {
  limit: InteractionGroup;
  /** Where the limit in force was set: organization, user or repository. */
  origin: LimitScope;
  expires_at: string;
}

export function interactionLimit(l: InteractionLimit): InteractionLimitView {
  return { limit: l.limit, origin: l.scope, expires_at: l.expiresAt };
}

/** Upstream answers an empty object when no limit is in force. */
export function interactionLimitOrEmpty(l: InteractionLimit | null): InteractionLimitView | Record<string, never> {
  return l ? interactionLimit(l) : {};
}
