// Request and response schemas of the interaction-limit routes.
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../http/schema-types.ts';
import { EXPIRIES, LIMITS } from './interactions.model.ts';

export { OrgParams } from '../orgs/orgs.schemas.ts';
export { RepoParams } from '../repos/repos.schemas.ts';

const ORIGINS = ['organization', 'repository', 'user'] as const;

const LimitProps = {
  limit: StringEnum(LIMITS),
  origin: StringEnum(ORIGINS),
  expires_at: Type.String(),
};

export const InteractionLimitResponse = Type.Object(LimitProps);

/** The limit in force, or {} when there is none. */
export const InteractionLimitOrEmpty = Type.Object({
  limit: Type.Optional(LimitProps.limit),
  origin: Type.Optional(LimitProps.origin),
  expires_at: Type.Optional(LimitProps.expires_at),
});

export const SetInteractionLimitBody = Type.Object({
  limit: StringEnum(LIMITS),
  expiry: Type.Optional(StringEnum(EXPIRIES, { default: 'one_day' })),
});
export type SetInteractionLimitBody = Static<typeof SetInteractionLimitBody>;
