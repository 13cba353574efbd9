// An organization's runner groups, their repositories and their runners.
import type { Router } from '../../http/router.ts';
import { pageOf, pagedRecord } from '../../http/pagination.ts';
import { NoContent } from '../../http/schema-types.ts';
import { presentRepos } from '../repos/repos.present.ts';
import * as repos from '../repos/repos.service.ts';
import * as members from './runner-group-members.service.ts';
import * as groups from './runner-groups.service.ts';
import { ORG_SCOPES } from './runners.access.ts';
import { presentRunners } from './runners.present.ts';
import {
  CreateGroupBody, GroupParams, GroupRepositoryList, GroupRepositoryParams, GroupRunnerParams, ListGroupsQuery, OrgParams,
  PageQuery, RunnerGroup, RunnerGroupList, RunnerList, SetGroupRepositoriesBody, SetGroupRunnersBody, UpdateGroupBody,
} from './runners.schemas.ts';
import { countedList, runnerGroup } from './runners.views.ts';

const BASE = '/orgs/:org/actions/runner-groups';
const scopes = ORG_SCOPES;

export function runnerGroupsRoutes(app: Router): void {
  const { urls } = app.ctx;
  const view = (r: groups.GroupRecord) => runnerGroup(urls, r.organizationLogin, r.group);

  app.get(BASE, {
    schema: { params: OrgParams, querystring: ListGroupsQuery, response: { 200: RunnerGroupList } },
    config: { operationId: 'actions/list-self-hosted-runner-groups-for-org', acceptedScopes: scopes },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await groups.listGroups(request.server.ctx, request.actor, request.params.org, request.query.visible_to_repository, p);
    return pagedRecord(countedList('runner_groups', page.items.map(view), page.total), p, page.total);
  });

  app.post(BASE, {
    schema: { params: OrgParams, body: CreateGroupBody, response: { 201: RunnerGroup } },
    config: { operationId: 'actions/create-self-hosted-runner-group-for-org', resource: 'RunnerGroup', acceptedScopes: scopes },
  }, async (request, reply) => {
    const created = await groups.createGroup(request.server.ctx, request.actor, request.params.org, request.body);
    return reply.code(201).send(view(created));
  });

  app.get(`${BASE}/:runner_group_id`, {
    schema: { params: GroupParams, response: { 200: RunnerGroup } },
    config: { operationId: 'actions/get-self-hosted-runner-group-for-org', acceptedScopes: scopes },
  }, async (request) => view(await groups.getGroup(request.server.ctx, request.actor, request.params.org, request.params.runner_group_id)));

  app.patch(`${BASE}/:runner_group_id`, {
    schema: { params: GroupParams, body: UpdateGroupBody, response: { 200: RunnerGroup } },
    config: { operationId: 'actions/update-self-hosted-runner-group-for-org', resource: 'RunnerGroup', acceptedScopes: scopes },
  }, async (request) => view(await groups.updateGroup(
    request.server.ctx, request.actor, request.params.org, request.params.runner_group_id, request.body,
  )));

  app.delete(`${BASE}/:runner_group_id`, {
    schema: { params: GroupParams, response: { 204: NoContent } },
    config: { operationId: 'actions/delete-self-hosted-runner-group-from-org', acceptedScopes: scopes },
  }, async (request, reply) => {
    await groups.deleteGroup(request.server.ctx, request.actor, request.params.org, request.params.runner_group_id);
    return reply.code(204).send();
  });

  app.get(`${BASE}/:runner_group_id/repositories`, {
    schema: { params: GroupParams, querystring: PageQuery, response: { 200: GroupRepositoryList } },
    config: { operationId: 'actions/list-repo-access-to-self-hosted-runner-group-in-org', acceptedScopes: scopes },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await members.listGroupRepositories(request.server.ctx, request.actor, request.params.org, request.params.runner_group_id, p);
    // Counts, licenses and the caller's roles for the whole page at once.
    const items = presentRepos(request, await repos.presentable(request.server.ctx, request.actor, page.items));
    return pagedRecord(countedList('repositories', items, page.total), p, page.total);
  });

  app.put(`${BASE}/:runner_group_id/repositories`, {
    schema: { params: GroupParams, body: SetGroupRepositoriesBody, response: { 204: NoContent } },
    config: { operationId: 'actions/set-repo-access-to-self-hosted-runner-group-in-org', resource: 'RunnerGroup', acceptedScopes: scopes },
  }, async (request, reply) => {
    await members.setGroupRepositories(request.server.ctx, request.actor, request.params.org, request.params.runner_group_id, request.body.selected_repository_ids);
    return reply.code(204).send();
  });

  for (const [method, add] of [['PUT', true], ['DELETE', false]] as const) {
    app.route({
      method, url: `${BASE}/:runner_group_id/repositories/:repository_id`,
      schema: { params: GroupRepositoryParams, response: { 204: NoContent } },
      config: { operationId: add ? 'actions/add-repo-access-to-self-hosted-runner-group-in-org' : 'actions/remove-repo-access-to-self-hosted-runner-group-in-org', acceptedScopes: scopes },
      handler: async (request, reply) => {
        const { org, runner_group_id: id, repository_id: repositoryId } = request.params;
        if (add) await members.addGroupRepository(request.server.ctx, request.actor, org, id, repositoryId);
        else await members.removeGroupRepository(request.server.ctx, request.actor, org, id, repositoryId);
        return reply.code(204).send();
      },
    });
    app.route({
      method, url: `${BASE}/:runner_group_id/runners/:runner_id`,
      schema: { params: GroupRunnerParams, response: { 204: NoContent } },
      config: { operationId: add ? 'actions/add-self-hosted-runner-to-group-for-org' : 'actions/remove-self-hosted-runner-from-group-for-org', acceptedScopes: scopes },
      handler: async (request, reply) => {
        const { org, runner_group_id: id, runner_id: runnerId } = request.params;
        if (add) await members.addGroupRunner(request.server.ctx, request.actor, org, id, runnerId);
        else await members.removeGroupRunner(request.server.ctx, request.actor, org, id, runnerId);
        return reply.code(204).send();
      },
    });
  }

  app.get(`${BASE}/:runner_group_id/runners`, {
    schema: { params: GroupParams, querystring: PageQuery, response: { 200: RunnerList } },
    config: { operationId: 'actions/list-self-hosted-runners-in-group-for-org', acceptedScopes: scopes },
  }, async (request) => {
    const p = pageOf(request.query);
    const page = await members.listGroupRunners(request.server.ctx, request.actor, request.params.org, request.params.runner_group_id, p);
    return pagedRecord(countedList('runners', presentRunners(request.server.ctx, page.items), page.total), p, page.total);
  });

  app.put(`${BASE}/:runner_group_id/runners`, {
    schema: { params: GroupParams, body: SetGroupRunnersBody, response: { 204: NoContent } },
    config: { operationId: 'actions/set-self-hosted-runners-in-group-for-org', resource: 'RunnerGroup', acceptedScopes: scopes },
  }, async (request, reply) => {
    await members.setGroupRunners(request.server.ctx, request.actor, request.params.org, request.params.runner_group_id, request.body.runners);
    return reply.code(204).send();
  });
}
