// REST of the app's webhook deliveries, with the app's JSON web token: the same records,
// cursor pages and redelivery as repository hooks' (the hooks module keeps them).
import { Type } from '@sinclair/typebox';
import { requireAppActor } from '../../domain/actor.ts';
import type { Router } from '../../http/router.ts';
import { pagedByCursor, pageOf } from '../../http/pagination.ts';
import * as deliveries from '../hooks/deliveries.service.ts';
import { delivery, deliveryItem } from '../hooks/deliveries.views.ts';
import { Accepted, DeliveryList, DeliveryResponse, ListDeliveriesQuery } from '../hooks/hooks.schemas.ts';

const DeliveryParams = Type.Object({ delivery_id: Type.Integer() });

export function appHookDeliveriesRoutes(app: Router): void {
  app.get('/app/hook/deliveries', {
    schema: { querystring: ListDeliveriesQuery, response: { 200: DeliveryList } },
    config: { operationId: 'apps/list-webhook-deliveries', acceptedScopes: [], appJwt: true },
  }, async (request) => {
    const { perPage } = pageOf(request.query);
    const page = await deliveries.listAppHookDeliveries(request.server.ctx, requireAppActor(request.actor), {
      perPage, cursor: request.query.cursor, status: request.query.status,
    });
    return pagedByCursor(page.items.map(deliveryItem), page.next, perPage);
  });

  app.get('/app/hook/deliveries/:delivery_id', {
    schema: { params: DeliveryParams, response: { 200: DeliveryResponse } },
    config: { operationId: 'apps/get-webhook-delivery', acceptedScopes: [], appJwt: true },
  }, async (request) => delivery(await deliveries.getAppHookDelivery(request.server.ctx, requireAppActor(request.actor), request.params.delivery_id)));

  app.post('/app/hook/deliveries/:delivery_id/attempts', {
    schema: { params: DeliveryParams, response: { 202: Accepted } },
    config: { operationId: 'apps/redeliver-webhook-delivery', acceptedScopes: [], appJwt: true },
  }, async (request, reply) => {
    await deliveries.redeliverAppHookDelivery(request.server.ctx, requireAppActor(request.actor), request.params.delivery_id);
    return reply.code(202).send({});
  });
}
