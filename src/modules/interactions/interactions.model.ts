// Interaction limits as the domain sees them.
export const LIMITS = ['existing_users', 'contributors_only', 'collaborators_only'] as const;
export type InteractionGroup = (typeof LIMITS)[number];

export const EXPIRIES = ['one_day', 'three_days', 'one_week', 'one_month', 'six_months'] as const;
export type InteractionExpiry = (typeof EXPIRIES)[number];

/** What a limit is set on; also the `origin` shown for it. */
export type LimitScope = 'organization' | 'repository' | 'user';

export interface InteractionLimit {
  scope: LimitScope;
  targetId: number;
  limit: InteractionGroup;
  expiresAt: string;
  createdAt: string;
}
