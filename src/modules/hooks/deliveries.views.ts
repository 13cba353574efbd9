// Webhook deliveries → API representation (hook-delivery-item, hook-delivery). Pure.
import type { Delivery, DeliveryDetail } from './hooks.model.ts';

export interface DeliveryItemView {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
  throttled_at: string | null;
}

export interface DeliveryView extends DeliveryItemView {
  url: string;
  request: { headers: Record<string, string> | null; payload: Record<string, unknown> | null };
  response: { headers: Record<string, string> | null; payload: string | null };
}

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
