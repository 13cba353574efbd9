// Check runs and check suites: create and update (apps' installation tokens; users'
// tokens where the site allows it), get, list for a ref or a suite, annotations,
// rerequest, and the repository's suite preferences.
import { pageOf, paged, pagedRecord } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import {
  Annotations, CheckRun, CheckRunList, CheckSuite, CheckSuiteList, CreateRunBody, CreateSuiteBody, Empty, ListRunsQuery,
  ListSuitesQuery, PageQuery, PreferencesBody, RefParams, RepoParams, RunParams, SuiteParams, SuitePreferences, UpdateRunBody,
} from './checks.schemas.ts';
import { presentAnnotations, presentRepository, presentRun, presentRuns, presentSuites } from './checks.present.ts';
import * as checks from './checks.service.ts';
import * as suites from './suites.service.ts';

const SCOPES = ['repo'];

export function checksRoutes(app: Router): void {
  app.post('/repos/:owner/:repo/check-runs', {
    schema: { params: RepoParams, body: CreateRunBody, response: { 201: CheckRun } },
    config: { operationId: 'checks/create', resource: 'CheckRun', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const r = await checks.createRun(request.server.ctx, request.actor, request.params.owner, request.params.repo, request.body);
    return reply.code(201).send(await presentRun(request.server.ctx, r.repo, r.run));
  });

  app.patch('/repos/:owner/:repo/check-runs/:check_run_id', {
    schema: { params: RunParams, body: UpdateRunBody, response: { 200: CheckRun } },
    config: { operationId: 'checks/update', resource: 'CheckRun', acceptedScopes: SCOPES },
  }, async (request) => {
    const { owner, repo, check_run_id: id } = request.params;
    const r = await checks.updateRun(request.server.ctx, request.actor, owner, repo, id, request.body);
    return presentRun(request.server.ctx, r.repo, r.run);
  });

  app.get('/repos/:owner/:repo/check-runs/:check_run_id', {
    schema: { params: RunParams, response: { 200: CheckRun } },
    config: { operationId: 'checks/get', acceptedScopes: SCOPES },
  }, async (request) => {
    const { owner, repo, check_run_id: id } = request.params;
    const r = await checks.getRun(request.server.ctx, request.actor, owner, repo, id);
    return presentRun(request.server.ctx, r.repo, r.run);
  });

  app.get('/repos/:owner/:repo/check-runs/:check_run_id/annotations', {
    schema: { params: RunParams, querystring: PageQuery, response: { 200: Annotations } },
    config: { operationId: 'checks/list-annotations', acceptedScopes: SCOPES },
  }, async (request) => {
    const { owner, repo, check_run_id: id } = request.params;
    const p = pageOf(request.query, 30, 100);
    const r = await checks.listAnnotations(request.server.ctx, request.actor, owner, repo, id, p);
    return paged(presentAnnotations(request.server.ctx, r.repo, r.run, r.items), p, r.run.output.annotationsCount);
  });

  app.post('/repos/:owner/:repo/check-runs/:check_run_id/rerequest', {
    schema: { params: RunParams, response: { 201: Empty } },
    config: { operationId: 'checks/rerequest-run', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const { owner, repo, check_run_id: id } = request.params;
    await checks.rerequestRun(request.server.ctx, request.actor, owner, repo, id);
    return reply.code(201).send({});
  });

  app.get('/repos/:owner/:repo/commits/:ref/check-runs', {
    schema: { params: RefParams, querystring: ListRunsQuery, response: { 200: CheckRunList } },
    config: { operationId: 'checks/list-for-ref', acceptedScopes: SCOPES },
  }, async (request) => {
    const { owner, repo, ref } = request.params;
    const q = request.query;
    const p = pageOf(q);
    const page = await checks.listRunsForRef(request.server.ctx, request.actor, owner, repo, ref, {
      checkName: q.check_name, status: q.status, filter: q.filter, appId: q.app_id === undefined ? undefined : Number(q.app_id),
    }, p);
    return pagedRecord({ total_count: page.total, check_runs: await presentRuns(request.server.ctx, page.repo, page.items) }, p, page.total);
  });

  app.post('/repos/:owner/:repo/check-suites', {
    schema: { params: RepoParams, body: CreateSuiteBody, response: { 200: CheckSuite, 201: CheckSuite } },
    config: { operationId: 'checks/create-suite', resource: 'CheckSuite', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const r = await suites.createSuite(request.server.ctx, request.actor, request.params.owner, request.params.repo, request.body.head_sha);
    const [view] = await presentSuites(request, r.repo, [r.suite]);
    return reply.code(r.created ? 201 : 200).send(view);
  });

  app.patch('/repos/:owner/:repo/check-suites/preferences', {
    schema: { params: RepoParams, body: PreferencesBody, response: { 200: SuitePreferences } },
    config: { operationId: 'checks/set-suites-preferences', resource: 'CheckSuitePreference', acceptedScopes: SCOPES },
  }, async (request) => {
    const { owner, repo } = request.params;
    const r = await suites.setPreferences(request.server.ctx, request.actor, owner, repo, request.body.auto_trigger_checks ?? []);
    return {
      preferences: { auto_trigger_checks: r.autoTrigger.map((p) => ({ app_id: p.appId, setting: p.setting })) },
      repository: await presentRepository(request, r.repo),
    };
  });

  app.get('/repos/:owner/:repo/check-suites/:check_suite_id', {
    schema: { params: SuiteParams, response: { 200: CheckSuite } },
    config: { operationId: 'checks/get-suite', acceptedScopes: SCOPES },
  }, async (request) => {
    const { owner, repo, check_suite_id: id } = request.params;
    const r = await suites.getSuite(request.server.ctx, request.actor, owner, repo, id);
    return (await presentSuites(request, r.repo, [r.suite]))[0]!;
  });

  app.get('/repos/:owner/:repo/check-suites/:check_suite_id/check-runs', {
    schema: { params: SuiteParams, querystring: ListRunsQuery, response: { 200: CheckRunList } },
    config: { operationId: 'checks/list-for-suite', acceptedScopes: SCOPES },
  }, async (request) => {
    const { owner, repo, check_suite_id: id } = request.params;
    const q = request.query;
    const p = pageOf(q);
    const page = await checks.listRunsForSuite(request.server.ctx, request.actor, owner, repo, id, {
      checkName: q.check_name, status: q.status, filter: q.filter,
    }, p);
    return pagedRecord({ total_count: page.total, check_runs: await presentRuns(request.server.ctx, page.repo, page.items) }, p, page.total);
  });

  app.post('/repos/:owner/:repo/check-suites/:check_suite_id/rerequest', {
    schema: { params: SuiteParams, response: { 201: Empty } },
    config: { operationId: 'checks/rerequest-suite', acceptedScopes: SCOPES },
  }, async (request, reply) => {
    const { owner, repo, check_suite_id: id } = request.params;
    await suites.rerequestSuite(request.server.ctx, request.actor, owner, repo, id);
    return reply.code(201).send({});
  });

  app.get('/repos/:owner/:repo/commits/:ref/check-suites', {
    schema: { params: RefParams, querystring: ListSuitesQuery, response: { 200: CheckSuiteList } },
    config: { operationId: 'checks/list-suites-for-ref', acceptedScopes: SCOPES },
  }, async (request) => {
    const { owner, repo, ref } = request.params;
    const q = request.query;
    const p = pageOf(q);
    const page = await suites.listSuitesForRef(request.server.ctx, request.actor, owner, repo, ref, {
      checkName: q.check_name, appId: q.app_id === undefined ? undefined : Number(q.app_id),
    }, p);
    return pagedRecord({ total_count: page.total, check_suites: await presentSuites(request, page.repo, page.items) }, p, page.total);
  });
}
