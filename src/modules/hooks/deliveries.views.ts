// Webhook deliveries → API representation (hook-delivery-item, hook-delivery). Pure.
import type { Static } from '@sinclair/typebox';
import type { Delivery, DeliveryDetail } from './hooks.model.ts';
import type { DeliveryItem, DeliveryResponse } from './hooks.schemas.ts';

// The schemas' types, so that a field a view adds and its schema lacks (which
// serialization would drop) does not compile.
export type DeliveryItemView = Static<typeof DeliveryItem>;
export type DeliveryView = Static<typeof DeliveryResponse>;

export function deliveryItem(d: Delivery): DeliveryItemView {
  return {
    id: d.id,
    guid: d.guid,
    delivered_at: d.deliveredAt,
    redelivery: d.redelivery,
    duration: d.duration,
    status: d.status,
    status_code: d.statusCode,
    event: d.event,
    action: d.action,
    installation_id: d.installationId,
    repository_id: d.repositoryId,
    throttled_at: null,
  };
}

export function delivery(d: DeliveryDetail): DeliveryView {
  return {
    ...deliveryItem(d),
    url: d.url ?? '',
    request: { headers: d.requestHeaders, payload: d.requestPayload },
    response: { headers: d.responseHeaders, payload: d.responseBody },
  };
}
