// The events API: /events, /repos/{o}/{r}/events, /networks/{o}/{r}/events,
// /users/{u}/events(/public), /users/{u}/received_events(/public), /orgs/{org}/events.
import type { FastifyReply } from 'fastify';
import { pageOf, paged, type PageRequest } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { EventList, EventsQuery, OrgParams, RepoParams, UsernameParams } from './events-api.schemas.ts';
import * as events from './events-api.service.ts';
import { eventView } from './events-api.views.ts';

/** Upstream asks pollers to wait a minute between polls. */
const POLL_INTERVAL = '60';

export function eventsApiRoutes(app: Router): void {
  const { urls } = app.ctx;
  const list = { response: { 200: EventList } };

  const answer = (reply: unknown, p: PageRequest, t: events.Timeline) => {
    (reply as FastifyReply).header('x-poll-interval', POLL_INTERVAL);
    return paged(t.events.map((e) => eventView(urls, e)), p, t.total);
  };
  const page = (p: PageRequest) => ({ offset: p.offset, limit: p.perPage });

  app.get('/events', {
    schema: { querystring: EventsQuery, ...list },
    config: { operationId: 'activity/list-public-events' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    return answer(reply, p, await events.listPublicEvents(request.server.ctx, request.actor, page(p)));
  });

  app.get('/repos/:owner/:repo/events', {
    schema: { params: RepoParams, querystring: EventsQuery, ...list },
    config: { operationId: 'activity/list-repo-events' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    return answer(reply, p, await events.listRepoEvents(request.server.ctx, request.actor, request.params.owner, request.params.repo, page(p)));
  });

  app.get('/networks/:owner/:repo/events', {
    schema: { params: RepoParams, querystring: EventsQuery, ...list },
    config: { operationId: 'activity/list-public-events-for-repo-network' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    return answer(reply, p, await events.listNetworkEvents(request.server.ctx, request.actor, request.params.owner, request.params.repo, page(p)));
  });

  const userTimeline = (path: string, config: { operationId: string }, received: boolean, onlyPublic: boolean) => {
    app.get(path, { schema: { params: UsernameParams, querystring: EventsQuery, ...list }, config }, async (request, reply) => {
      const p = pageOf(request.query);
      const read = received ? events.listReceivedEvents : events.listUserEvents;
      return answer(reply, p, await read(request.server.ctx, request.actor, request.params.username, onlyPublic, page(p)));
    });
  };
  userTimeline('/users/:username/events', { operationId: 'activity/list-events-for-authenticated-user' }, false, false);
  userTimeline('/users/:username/events/public', { operationId: 'activity/list-public-events-for-user' }, false, true);
  userTimeline('/users/:username/received_events', { operationId: 'activity/list-received-events-for-user' }, true, false);
  userTimeline('/users/:username/received_events/public', { operationId: 'activity/list-received-public-events-for-user' }, true, true);

  app.get('/orgs/:org/events', {
    schema: { params: OrgParams, querystring: EventsQuery, ...list },
    config: { operationId: 'activity/list-public-org-events' },
  }, async (request, reply) => {
    const p = pageOf(request.query);
    return answer(reply, p, await events.listOrgEvents(request.server.ctx, request.actor, request.params.org, page(p)));
  });
}
