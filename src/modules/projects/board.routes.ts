// Columns and cards of classic projects, and their moves.
import { pageOf, paged } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { NoContent } from '../../http/schema-types.ts';
import * as board from './board.service.ts';
import { WRITE_SCOPES } from './projects.access.ts';
import { presentCard, presentCards } from './projects.present.ts';
import {
  CardListQuery, CardMoveBody, CardParams, ColumnBody, ColumnMoveBody, ColumnParams, CreateCardBody, Moved, PageQuery, ProjectCard,
  ProjectCardList, ProjectColumn, ProjectColumnList, ProjectParams, UpdateCardBody,
} from './projects.schemas.ts';
import { column } from './projects.views.ts';

const COLUMN_WRITE = { resource: 'ProjectColumn', acceptedScopes: WRITE_SCOPES };
const CARD_WRITE = { resource: 'ProjectCard', acceptedScopes: WRITE_SCOPES };

export function boardRoutes(app: Router): void {
  app.get('/projects/:project_id/columns', {
    schema: { params: ProjectParams, querystring: PageQuery, response: { 200: ProjectColumnList } },
    config: { operationId: 'projects/list-columns' },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await board.listColumns(request.server.ctx, request.actor, request.params.project_id, p);
    return paged(page.items.map((c) => column(request.server.ctx.urls, c)), p, page.total);
  });

  app.post('/projects/:project_id/columns', {
    schema: { params: ProjectParams, body: ColumnBody, response: { 201: ProjectColumn } },
    config: { operationId: 'projects/create-column', ...COLUMN_WRITE },
  }, async (request, reply) => {
    const created = await board.createColumn(request.server.ctx, request.actor, request.params.project_id, request.body.name);
    return reply.code(201).send(column(request.server.ctx.urls, created));
  });

  app.get('/projects/columns/:column_id', {
    schema: { params: ColumnParams, response: { 200: ProjectColumn } },
    config: { operationId: 'projects/get-column' },
  }, async (request) => column(request.server.ctx.urls, await board.getColumn(request.server.ctx, request.actor, request.params.column_id)));

  app.patch('/projects/columns/:column_id', {
    schema: { params: ColumnParams, body: ColumnBody, response: { 200: ProjectColumn } },
    config: { operationId: 'projects/update-column', ...COLUMN_WRITE },
  }, async (request) => column(
    request.server.ctx.urls, await board.renameColumn(request.server.ctx, request.actor, request.params.column_id, request.body.name),
  ));

  app.delete('/projects/columns/:column_id', {
    schema: { params: ColumnParams, response: { 204: NoContent } },
    config: { operationId: 'projects/delete-column', ...COLUMN_WRITE },
  }, async (request, reply) => {
    await board.deleteColumn(request.server.ctx, request.actor, request.params.column_id);
    return reply.code(204).send();
  });

  app.post('/projects/columns/:column_id/moves', {
    schema: { params: ColumnParams, body: ColumnMoveBody, response: { 201: Moved } },
    config: { operationId: 'projects/move-column', ...COLUMN_WRITE },
  }, async (request, reply) => {
    await board.moveColumn(request.server.ctx, request.actor, request.params.column_id, request.body.position);
    return reply.code(201).send({});
  });

  app.get('/projects/columns/:column_id/cards', {
    schema: { params: ColumnParams, querystring: CardListQuery, response: { 200: ProjectCardList } },
    config: { operationId: 'projects/list-cards' },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await board.listCards(request.server.ctx, request.actor, request.params.column_id, request.query.archived_state ?? 'not_archived', p);
    return paged(await presentCards(request.server.ctx, request.actor, page.items), p, page.total);
  });

  app.post('/projects/columns/:column_id/cards', {
    schema: { params: ColumnParams, body: CreateCardBody, response: { 201: ProjectCard } },
    config: { operationId: 'projects/create-card', ...CARD_WRITE },
  }, async (request, reply) => {
    const created = await board.createCard(request.server.ctx, request.actor, request.params.column_id, request.body);
    return reply.code(201).send(await presentCard(request.server.ctx, request.actor, created));
  });

  app.get('/projects/columns/cards/:card_id', {
    schema: { params: CardParams, response: { 200: ProjectCard } },
    config: { operationId: 'projects/get-card' },
  }, async (request) => presentCard(request.server.ctx, request.actor, await board.getCard(request.server.ctx, request.actor, request.params.card_id)));

  app.patch('/projects/columns/cards/:card_id', {
    schema: { params: CardParams, body: UpdateCardBody, response: { 200: ProjectCard } },
    config: { operationId: 'projects/update-card', ...CARD_WRITE },
  }, async (request) => presentCard(
    request.server.ctx, request.actor, await board.updateCard(request.server.ctx, request.actor, request.params.card_id, request.body),
  ));

  app.delete('/projects/columns/cards/:card_id', {
    schema: { params: CardParams, response: { 204: NoContent } },
    config: { operationId: 'projects/delete-card', ...CARD_WRITE },
  }, async (request, reply) => {
    await board.deleteCard(request.server.ctx, request.actor, request.params.card_id);
    return reply.code(204).send();
  });

  app.post('/projects/columns/cards/:card_id/moves', {
    schema: { params: CardParams, body: CardMoveBody, response: { 201: Moved } },
    config: { operationId: 'projects/move-card', ...CARD_WRITE },
  }, async (request, reply) => {
    await board.moveCard(request.server.ctx, request.actor, request.params.card_id, request.body.position, request.body.column_id);
    return reply.code(201).send({});
  });
}
