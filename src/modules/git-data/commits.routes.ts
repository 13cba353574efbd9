// /repos/{owner}/{repo}/commits and /branches.
import type { FastifyReply } from 'fastify';
import { PagedObject } from '../../http/schema-types.ts';
import { pageOf, paged, pagedRecord } from '../../http/pagination.ts';
import type { Router } from '../../http/router.ts';
import { BranchWithProtection, CommitList, FullCommit, ListBranchesQuery, ListCommitsQuery, PageQuery, ShortBranchList } from './commits.schemas.ts';
import * as commits from './commits.service.ts';
import { branchWithProtection, commitRecord, fullCommit, shortBranch } from './commits.views.ts';
import { RepoParams, RepoRestParams } from './git-data.schemas.ts';
import { repoUrls } from './git-data.views.ts';

const TEXT_MEDIA = { diff: 'application/vnd.service.diff; charset=utf-8', patch: 'application/vnd.service.patch; charset=utf-8', sha: 'application/vnd.service.sha; charset=utf-8' } as const;

export function commitsRoutes(app: Router): void {
  const { urls } = app.ctx;

  app.get('/repos/:owner/:repo/commits', {
    schema: { params: RepoParams, querystring: ListCommitsQuery, response: { 200: CommitList } },
    config: { operationId: 'repos/list-commits', answerCache: true },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await commits.listCommits(request.server.ctx, request.actor, owner, repo, { ...request.query, offset: p.offset, limit: p.perPage });
    const u = repoUrls(urls, page.repo);
    return paged(page.items.map((d) => commitRecord(urls, u, page.repo, d)), p, page.total);
  });

  app.get('/repos/:owner/:repo/commits/*', {
    schema: { params: RepoRestParams, querystring: PageQuery, response: { 200: PagedObject(FullCommit) } },
    config: { operationId: 'repos/get-commit', resource: 'Commit', answerCache: true },
  }, async (request, reply) => {
    const { owner, repo, '*': ref } = request.params;
    const { ctx } = request.server;
    const media = request.media.param;
    if (media === 'diff' || media === 'patch' || media === 'sha') {
      const text = await commits.getCommitText(ctx, request.actor, owner, repo, ref, media);
      // Text media types answer outside the JSON schema.
      return (reply as FastifyReply).type(TEXT_MEDIA[media]).send(text);
    }
    const p = pageOf(request.query, commits.FILES_PER_PAGE, commits.FILES_PER_PAGE);
    const d = await commits.getCommit(ctx, request.actor, owner, repo, ref, { offset: p.offset, limit: p.perPage });
    const record = fullCommit(urls, repoUrls(urls, d.repo), d.repo, d);
    // Upstream sends Link only when the files need more than one page.
    return d.fileCount > p.perPage ? pagedRecord(record, p, d.fileCount) : record;
  });

  app.get('/repos/:owner/:repo/branches', {
    schema: { params: RepoParams, querystring: ListBranchesQuery, response: { 200: ShortBranchList } },
    config: { operationId: 'repos/list-branches', answerCache: true },
  }, async (request) => {
    const { owner, repo } = request.params;
    const p = pageOf(request.query);
    const page = await commits.listBranches(request.server.ctx, request.actor, owner, repo, { protected: request.query.protected, offset: p.offset, limit: p.perPage });
    const u = repoUrls(urls, page.repo);
    return paged(page.branches.map((b) => shortBranch(urls, u, page.repo, b)), p, page.total);
  });

  app.get('/repos/:owner/:repo/branches/*', {
    schema: { params: RepoRestParams, response: { 200: BranchWithProtection } },
    config: { operationId: 'repos/get-branch', answerCache: true },
  }, async (request) => {
    const { owner, repo, '*': branch } = request.params;
    const d = await commits.getBranch(request.server.ctx, request.actor, owner, repo, branch);
    return branchWithProtection(urls, repoUrls(urls, d.repo), d.repo, d.name, d);
  });
}
