// Check runs and suites → API representations: loads in bulk what the views show (the
// apps, the open pull requests of the head commits, head commits, latest run counts,
// the repository as the caller sees it), then builds them.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import * as git from '../../git/repository.ts';
import { appRecord } from '../apps/apps.views.ts';
import * as apps from '../apps/apps.service.ts';
import * as pulls from '../pulls/pulls.service.ts';
import { presentRepo } from '../repos/repos.present.ts';
import type { Repo } from '../repos/repos.model.ts';
import * as repos from '../repos/repos.service.ts';
import type { CheckAnnotation, CheckRun, CheckSuite } from './checks.model.ts';
import * as store from './checks.store.ts';
import { annotation, checkRun, checkSuite, pullMinimal, type AppView, type PullMinimalView, type SuiteDetail } from './checks.views.ts';

async function appViews(ctx: AppContext, appIds: readonly (number | null)[]): Promise<Map<number, AppView>> {
  const ids = [...new Set(appIds.filter((id): id is number => id !== null))];
  const found = await apps.appsByIds(ctx, ids);
  const presented = await apps.presentApps(ctx, [...found.values()]);
  return new Map(presented.map((p) => [p.app.id, appRecord(p, ctx.urls)]));
}

/** The open pull requests of each head commit, as check runs and suites list them. */
async function pullsByHead(ctx: AppContext, repo: Repo, shas: readonly string[]): Promise<Map<string, PullMinimalView[]>> {
  const list = await pulls.openPullsWithHeads(ctx, repo.id, shas);
  const headIds = [...new Set(list.flatMap((p) => (p.headRepositoryId !== null && p.headRepositoryId !== repo.id ? [p.headRepositoryId] : [])))];
  const heads = new Map((await repos.reposByIds(ctx, headIds)).map((r) => [r.id, r]));
  const out = new Map<string, PullMinimalView[]>();
  for (const p of list) out.set(p.headSha, [...(out.get(p.headSha) ?? []), pullMinimal(ctx.urls, repo, heads, p)]);
  return out;
}

export async function presentRuns(ctx: AppContext, repo: Repo, runs: readonly CheckRun[]) {
  const suites = new Map((await store.suitesByIds(ctx.db, [...new Set(runs.map((r) => r.suiteId))])).map((s) => [s.id, s]));
  const [appsById, pullsOf] = await Promise.all([
    appViews(ctx, [...suites.values()].map((s) => s.appId)),
    pullsByHead(ctx, repo, runs.map((r) => r.headSha)),
  ]);
  return runs.map((run) => {
    const appId = suites.get(run.suiteId)?.appId ?? null;
    return checkRun(ctx.urls, repo, run, appId === null ? null : appsById.get(appId) ?? null, pullsOf.get(run.headSha) ?? []);
  });
}

export async function presentRun(ctx: AppContext, repo: Repo, run: CheckRun) {
  return (await presentRuns(ctx, repo, [run]))[0]!;
}

/** What the suites' views show besides the repository. */
export async function suiteDetails(ctx: AppContext, repo: Repo, suites: readonly CheckSuite[]): Promise<SuiteDetail[]> {
  const dir = repos.gitDir(ctx, repo);
  const shas = [...new Set(suites.map((s) => s.headSha))];
  const [appsById, pullsOf, counts, commits] = await Promise.all([
    appViews(ctx, suites.map((s) => s.appId)),
    pullsByHead(ctx, repo, shas),
    store.latestCountsOfSuites(ctx.db, suites.map((s) => s.id)),
    Promise.all(shas.map(async (sha) => [sha, (await git.commitsBetween(dir, sha, [], 1))[0] ?? null] as const)),
  ]);
  const commitOf = new Map(commits);
  return suites.map((suite) => ({
    suite, app: suite.appId === null ? null : appsById.get(suite.appId) ?? null, pulls: pullsOf.get(suite.headSha) ?? [],
    headCommit: commitOf.get(suite.headSha) ?? null, latestCount: counts.get(suite.id) ?? 0,
  }));
}

/** The suites with their repository shown as the caller sees it. */
export async function presentSuites(request: FastifyRequest, repo: Repo, suites: readonly CheckSuite[]) {
  const { ctx } = request.server;
  const [[presentable], details] = await Promise.all([repos.presentable(ctx, request.actor, [repo]), suiteDetails(ctx, repo, suites)]);
  const repository = presentRepo(request, presentable!);
  return details.map((d) => checkSuite(ctx.urls, repo, repository, d));
}

export async function presentRepository(request: FastifyRequest, repo: Repo) {
  const [presentable] = await repos.presentable(request.server.ctx, request.actor, [repo]);
  return presentRepo(request, presentable!);
}

export function presentAnnotations(ctx: AppContext, repo: Repo, run: CheckRun, list: readonly CheckAnnotation[]) {
  return list.map((a) => annotation(ctx.urls, repo, run.headSha, a));
}
