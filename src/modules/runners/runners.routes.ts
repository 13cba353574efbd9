// Self-hosted runners of an organization or a repository: tokens, runners, labels.
// Both kinds share handlers; `at` says which one a request names.
import type { Router } from '../../http/router.ts';
import { pageOf, pagedRecord } from '../../http/pagination.ts';
import { NoContent } from '../../http/schema-types.ts';
import { presentRepo } from '../repos/repos.present.ts';
import * as repos from '../repos/repos.service.ts';
import { ORG_SCOPES, type RunnersAt } from './runners.access.ts';
import { presentRunner, presentRunners } from './runners.present.ts';
import {
  LabelList, LabelsBody, ListRunnersQuery, OrgLabelParams, OrgParams, OrgRunnerParams, RepoLabelParams, RepoParams,
  RepoRunnerParams, Runner, RunnerList, RunnerToken, SetLabelsBody,
} from './runners.schemas.ts';
import * as runners from './runners.service.ts';
import { countedList, labelList, runnerToken } from './runners.views.ts';

type Params = { org: string } | { owner: string; repo: string };

function at(p: Params): RunnersAt {
  return 'org' in p ? { kind: 'org', org: p.org } : { kind: 'repo', owner: p.owner, repo: p.repo };
}

const KINDS = [
  { prefix: '/orgs/:org/actions/runners', suffix: 'for-org', params: OrgParams, runner: OrgRunnerParams, label: OrgLabelParams, scopes: ORG_SCOPES },
  { prefix: '/repos/:owner/:repo/actions/runners', suffix: 'for-repo', params: RepoParams, runner: RepoRunnerParams, label: RepoLabelParams, scopes: ['public_repo', 'repo'] },
] as const;

export function runnersRoutes(app: Router): void {
  for (const k of KINDS) {
    for (const [kind, path] of [['registration', 'registration-token'], ['remove', 'remove-token']] as const) {
      app.post(`${k.prefix}/${path}`, {
        schema: { params: k.params, response: { 201: RunnerToken } },
        config: { operationId: `actions/create-${kind === 'registration' ? 'registration' : 'remove'}-token-${k.suffix}`, acceptedScopes: [...k.scopes] },
      }, async (request, reply) => {
        const t = await runners.createToken(request.server.ctx, request.actor, at(request.params), kind);
        const repository = t.repo ? presentRepo(request, (await repos.presentable(request.server.ctx, request.actor, [t.repo]))[0]!) : null;
        return reply.code(201).send(runnerToken(t, repository));
      });
    }

    app.get(k.prefix, {
      schema: { params: k.params, querystring: ListRunnersQuery, response: { 200: RunnerList } },
      config: { operationId: `actions/list-self-hosted-runners-${k.suffix}`, acceptedScopes: [...k.scopes] },
    }, async (request) => {
      const p = pageOf(request.query);
      const page = await runners.listRunners(request.server.ctx, request.actor, at(request.params), request.query.name, p);
      return pagedRecord(countedList('runners', presentRunners(request.server.ctx, page.items), page.total), p, page.total);
    });

    app.get(`${k.prefix}/:runner_id`, {
      schema: { params: k.runner, response: { 200: Runner } },
      config: { operationId: `actions/get-self-hosted-runner-${k.suffix}`, acceptedScopes: [...k.scopes] },
    }, async (request) => {
      const r = await runners.getRunner(request.server.ctx, request.actor, at(request.params), request.params.runner_id);
      return presentRunner(request.server.ctx, r);
    });

    app.delete(`${k.prefix}/:runner_id`, {
      schema: { params: k.runner, response: { 204: NoContent } },
      config: { operationId: `actions/delete-self-hosted-runner-from-${k.suffix.slice(4)}`, acceptedScopes: [...k.scopes] },
    }, async (request, reply) => {
      await runners.deleteRunner(request.server.ctx, request.actor, at(request.params), request.params.runner_id);
      return reply.code(204).send();
    });

    app.get(`${k.prefix}/:runner_id/labels`, {
      schema: { params: k.runner, response: { 200: LabelList } },
      config: { operationId: `actions/list-labels-for-self-hosted-runner-${k.suffix}`, acceptedScopes: [...k.scopes] },
    }, async (request) => labelList(await runners.listLabels(request.server.ctx, request.actor, at(request.params), request.params.runner_id)));

    app.post(`${k.prefix}/:runner_id/labels`, {
      schema: { params: k.runner, body: LabelsBody, response: { 200: LabelList } },
      config: { operationId: `actions/add-custom-labels-to-self-hosted-runner-${k.suffix}`, resource: 'Runner', acceptedScopes: [...k.scopes] },
    }, async (request) => labelList(await runners.changeLabels(
      request.server.ctx, request.actor, at(request.params), request.params.runner_id, request.body.labels, false,
    )));

    app.put(`${k.prefix}/:runner_id/labels`, {
      schema: { params: k.runner, body: SetLabelsBody, response: { 200: LabelList } },
      config: { operationId: `actions/set-custom-labels-for-self-hosted-runner-${k.suffix}`, resource: 'Runner', acceptedScopes: [...k.scopes] },
    }, async (request) => labelList(await runners.changeLabels(
      request.server.ctx, request.actor, at(request.params), request.params.runner_id, request.body.labels, true,
    )));

    app.delete(`${k.prefix}/:runner_id/labels`, {
      schema: { params: k.runner, response: { 200: LabelList } },
      config: { operationId: `actions/remove-all-custom-labels-from-self-hosted-runner-${k.suffix}`, acceptedScopes: [...k.scopes] },
    }, async (request) => labelList(await runners.removeLabels(request.server.ctx, request.actor, at(request.params), request.params.runner_id)));

    app.delete(`${k.prefix}/:runner_id/labels/:name`, {
      schema: { params: k.label, response: { 200: LabelList } },
      config: { operationId: `actions/remove-custom-label-from-self-hosted-runner-${k.suffix}`, acceptedScopes: [...k.scopes] },
    }, async (request) => labelList(await runners.removeLabels(
      request.server.ctx, request.actor, at(request.params), request.params.runner_id, request.params.name,
    )));
  }
}
