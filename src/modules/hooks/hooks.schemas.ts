// Request and response schemas of the webhook routes. Bodies are checked for types
// here; the rules on values (URL, content type, event names) are the service's.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PagedArray } from '../../http/schema-types.ts';

export { OrgParams } from '../orgs/orgs.schemas.ts';
export { RepoParams } from '../repos/repos.schemas.ts';

export const RepoHookParams = Type.Object({ owner: Type.String(), repo: Type.String(), hook_id: Type.Integer() });
export const OrgHookParams = Type.Object({ org: Type.String(), hook_id: Type.Integer() });

const ConfigBody = Type.Object({
  url: Type.Optional(Type.String()),
  content_type: Type.Optional(Type.String()),
  secret: Type.Optional(Nullable(Type.String())),
  insecure_ssl: Type.Optional(Type.Union([Type.String(), Type.Number()])),
});

const Events = Type.Array(Type.String());

export const CreateHookBody = Type.Object({
  name: Type.Optional(Type.String()),
  config: Type.Optional(ConfigBody),
  events: Type.Optional(Events),
  active: Type.Optional(Type.Boolean()),
});
export type CreateHookBody = Static<typeof CreateHookBody>;

export const UpdateHookBody = Type.Object({
  name: Type.Optional(Type.String()),
  config: Type.Optional(ConfigBody),
  events: Type.Optional(Events),
  add_events: Type.Optional(Events),
  remove_events: Type.Optional(Events),
  active: Type.Optional(Type.Boolean()),
});
export type UpdateHookBody = Static<typeof UpdateHookBody>;

export const HookResponse = Type.Object({
  type: Type.String(),
  id: Type.Integer(),
  name: Type.String(),
  active: Type.Boolean(),
  events: Type.Array(Type.String()),
  config: Type.Object({
    content_type: Type.String(),
    insecure_ssl: Type.String(),
    url: Type.String(),
    secret: Type.Optional(Type.String()),
  }),
  updated_at: Type.String(),
  created_at: Type.String(),
  url: Type.String(),
  test_url: Type.Optional(Type.String()),
  ping_url: Type.String(),
  deliveries_url: Type.String(),
  last_response: Type.Object({
    code: Nullable(Type.Integer()),
    status: Type.String(),
    message: Nullable(Type.String()),
  }),
});

export const HookList = PagedArray(HookResponse);

// ---------------------------------------------------------------- deliveries

export const RepoDeliveryParams = Type.Object({
  owner: Type.String(), repo: Type.String(), hook_id: Type.Integer(), delivery_id: Type.Integer(),
});
export const OrgDeliveryParams = Type.Object({ org: Type.String(), hook_id: Type.Integer(), delivery_id: Type.Integer() });

/** per_page as text: out-of-range values fall back to the default (pageOf), as upstream. */
export const ListDeliveriesQuery = Type.Object({
  per_page: Type.Optional(Type.String()),
  cursor: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
});
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuery>;

const DeliveryItemProps = {
  id: Type.Integer(),
  guid: Type.String(),
  delivered_at: Type.String(),
  redelivery: Type.Boolean(),
  duration: Type.Number(),
  status: Type.String(),
  status_code: Type.Integer(),
  event: Type.String(),
  action: Nullable(Type.String()),
  installation_id: Nullable(Type.Integer()),
  repository_id: Nullable(Type.Integer()),
  throttled_at: Nullable(Type.String()),
};

export const DeliveryItem = Type.Object(DeliveryItemProps);
export const DeliveryList = PagedArray(DeliveryItem);

const Headers = Type.Record(Type.String(), Type.String());

export const DeliveryResponse = Type.Object({
  ...DeliveryItemProps,
  url: Type.String(),
  request: Type.Object({
    headers: Type.Union([Headers, Type.Null()]),
    payload: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
  }),
  response: Type.Object({
    headers: Type.Union([Headers, Type.Null()]),
    payload: Nullable(Type.String()),
  }),
});

export const Accepted = Type.Object({});

/** POST /hub: a form (or JSON) body; the values' rules are the hub service's. */
export const HubBody = Type.Object({
  'hub.mode': Type.Optional(Type.String()),
  'hub.topic': Type.Optional(Type.String()),
  'hub.callback': Type.Optional(Type.String()),
  'hub.secret': Type.Optional(Type.String()),
});
