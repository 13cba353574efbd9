// Notifications: the inbox, marking read and done, thread subscriptions.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Router } from '../../http/router.ts';
import { paged, pageOf, type PageRequest } from '../../http/pagination.ts';
import { ListNotificationsQuery, MarkReadBody, RepoParams, ThreadList, ThreadParams, ThreadResponse, ThreadSubscriptionBody, ThreadSubscriptionResponse } from './notifications.schemas.ts';
import * as notifications from './notifications.service.ts';
import { SCOPES, type ThreadPage } from './notifications.service.ts';
import { thread, threadSubscription } from './notifications.views.ts';
import { NoContent } from '../../http/schema-types.ts';
import { presentReposById } from '../repos/repos.present.ts';

const RESOURCE = 'Notification';
const ACCEPTED = [...SCOPES];
/** Spec Limits: 50 per page at most, 50 by default. */
const PER_PAGE = 50;
/** Seconds a poller should wait between requests (X-Poll-Interval). */
const POLL_INTERVAL = '60';

/** A page of threads, with the poll interval and the newest thread's time as Last-Modified. */
async function threadPage(request: FastifyRequest, reply: FastifyReply, p: PageRequest, result: ThreadPage) {
  reply.header('x-poll-interval', POLL_INTERVAL);
  // Drives Last-Modified and If-Modified-Since → 304 (which the conventions do not count).
  reply.lastModified = result.lastModified;
  const records = await presentReposById(request, result.items.map((d) => d.repo));
  return paged(result.items.map((d) => thread(d, records.get(d.repo.id)!, request.server.ctx.urls)), p, result.total);
}

export function notificationsRoutes(app: Router): void {
  app.get('/notifications', {
    schema: { querystring: ListNotificationsQuery, response: { 200: ThreadList } },
    config: { operationId: 'activity/list-notifications-for-authenticated-user', resource: RESOURCE, acceptedScopes: ACCEPTED },
  }, async (request, reply) => {
    const p = pageOf(request.query, PER_PAGE, PER_PAGE);
    const result = await notifications.listForAuthenticatedUser(request.server.ctx, request.actor, request.query, p);
    return threadPage(request, reply, p, result);
  });

  app.put('/notifications', {
    schema: { body: MarkReadBody, response: { 205: NoContent } },
    config: { operationId: 'activity/mark-notifications-as-read', resource: RESOURCE, acceptedScopes: ACCEPTED },
  }, async (request, reply) => {
    await notifications.markAllRead(request.server.ctx, request.actor, request.body ?? {});
    return reply.code(205).send();
  });

  app.get('/repos/:owner/:repo/notifications', {
    schema: { params: RepoParams, querystring: ListNotificationsQuery, response: { 200: ThreadList } },
    config: { operationId: 'activity/list-repo-notifications-for-authenticated-user', resource: RESOURCE, acceptedScopes: ACCEPTED },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query, PER_PAGE, PER_PAGE);
    const result = await notifications.listForRepository(request.server.ctx, request.actor, owner, repo, request.query, p);
    return threadPage(request, reply, p, result);
  });

  app.put('/repos/:owner/:repo/notifications', {
    schema: { params: RepoParams, body: MarkReadBody, response: { 205: NoContent } },
    config: { operationId: 'activity/mark-repo-notifications-as-read', resource: RESOURCE, acceptedScopes: ACCEPTED },
  }, async (request, reply) => {
    const { owner, repo } = request.params;
    await notifications.markRepositoryRead(request.server.ctx, request.actor, owner, repo, request.body ?? {});
    return reply.code(205).send();
  });

  app.get('/notifications/threads/:thread_id', {
    schema: { params: ThreadParams, response: { 200: ThreadResponse } },
    config: { operationId: 'activity/get-thread', acceptedScopes: ACCEPTED },
  }, async (request) => {
    const d = await notifications.getThread(request.server.ctx, request.actor, request.params.thread_id);
    const records = await presentReposById(request, [d.repo]);
    return thread(d, records.get(d.repo.id)!, request.server.ctx.urls);
  });

  app.patch('/notifications/threads/:thread_id', {
    schema: { params: ThreadParams, response: { 205: NoContent } },
    config: { operationId: 'activity/mark-thread-as-read', acceptedScopes: ACCEPTED },
  }, async (request, reply) => {
    await notifications.markThreadRead(request.server.ctx, request.actor, request.params.thread_id);
    return reply.code(205).send();
  });

  app.delete('/notifications/threads/:thread_id', {
    schema: { params: ThreadParams, response: { 204: NoContent } },
    config: { operationId: 'activity/mark-thread-as-done', acceptedScopes: ACCEPTED },
  }, async (request, reply) => {
    await notifications.markThreadDone(request.server.ctx, request.actor, request.params.thread_id);
    return reply.code(204).send();
  });

  app.get('/notifications/threads/:thread_id/subscription', {
    schema: { params: ThreadParams, response: { 200: ThreadSubscriptionResponse } },
    config: { operationId: 'activity/get-thread-subscription-for-authenticated-user', acceptedScopes: ACCEPTED },
  }, async (request) => {
    const d = await notifications.getThreadSubscription(request.server.ctx, request.actor, request.params.thread_id);
    return threadSubscription(d, request.server.ctx.urls);
  });

  app.put('/notifications/threads/:thread_id/subscription', {
    schema: { params: ThreadParams, body: ThreadSubscriptionBody, response: { 200: ThreadSubscriptionResponse } },
    config: { operationId: 'activity/set-thread-subscription', resource: 'ThreadSubscription', acceptedScopes: ACCEPTED },
  }, async (request) => {
    const d = await notifications.setThreadSubscription(request.server.ctx, request.actor, request.params.thread_id, request.body ?? {});
    return threadSubscription(d, request.server.ctx.urls);
  });

  app.delete('/notifications/threads/:thread_id/subscription', {
    schema: { params: ThreadParams, response: { 204: NoContent } },
    config: { operationId: 'activity/delete-thread-subscription', acceptedScopes: ACCEPTED },
  }, async (request, reply) => {
    await notifications.deleteThreadSubscription(request.server.ctx, request.actor, request.params.thread_id);
    return reply.code(204).send();
  });
}
