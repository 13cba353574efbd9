// The web interface at the addresses the API hands out as html_url: the home page,
// profiles, a repository's code, history, issues and pull requests. Each handler asks
// web.service for the page's data (the API's own services, with the viewer as actor)
// and renders it. `/` and the raw file address are shared with the API: there the page
// answers only a browser (the wharfPage constraint); everyone else keeps the JSON.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Router } from '../../http/router.ts';
import { ConflictError, DomainError, ForbiddenError, MovedPermanentlyError, NotAllowedError, NotFoundError, ValidationError } from '../../domain/errors.ts';
import { csrfValid, redirectToLogin, registerPageScope, sendCsrfFailure, sendPage } from '../web-session/web-request.ts';
import { blobPage, treePage } from './code.pages.ts';
import { commitPage, commitsPage } from './commits.pages.ts';
import { homePage, profilePage } from './home.pages.ts';
import { issuePage, issuePath, issuesPage, newIssuePage } from './issues.pages.ts';
import { pullPage, pullsPage } from './pulls.pages.ts';
import { repoPath } from './repo.layout.ts';
import { addPageConstraint, PAGE_CONSTRAINT, viewerOf, type Viewer } from './web.request.ts';
import {
  CommentForm, CommitsQuery, IssueForm, IssuesQuery, LoginParams, MergeForm, NumberParams, PageQuery, RepoParams, RepoRestParams, ShaParams,
} from './web.schemas.ts';
import * as web from './web.service.ts';

const PAGE = { rateLimit: 'none' as const, rawResponse: true };
const BROWSER_ONLY = { [PAGE_CONSTRAINT]: 'html' };

function pageNumber(raw: string | undefined): number {
  const n = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return Math.max(1, n);
}

function issueNumber(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw new NotFoundError();
  return Number(raw);
}

/** What a refused form shows inline, and the status it answers with. */
function formErrors(err: unknown): { status: number; messages: string[] } {
  if (err instanceof ValidationError) {
    return { status: 422, messages: err.errors.length ? err.errors.map((e) => e.message ?? `${e.field} is ${e.code === 'missing_field' ? 'missing' : 'invalid'}`) : [err.message] };
  }
  if (err instanceof ForbiddenError) return { status: 403, messages: [err.message] };
  if (err instanceof ConflictError) return { status: 409, messages: [err.message] };
  if (err instanceof NotAllowedError) return { status: 405, messages: [err.message] };
  if (err instanceof DomainError && !(err instanceof NotFoundError)) return { status: 422, messages: [err.message] };
  throw err;
}

/** A form post of a signed-in browser with its CSRF token; anything else never reaches `act`. */
async function signedInPost(
  request: FastifyRequest, reply: FastifyReply, token: string | undefined,
  act: (viewer: Viewer) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  const viewer = await viewerOf(request);
  if (!viewer.session) return redirectToLogin(request, reply);
  if (!csrfValid(request, viewer.session, token)) return sendCsrfFailure(reply, viewer.session);
  return act(viewer);
}

/** A file's bytes for a browser: text as plain text, anything else as a download; never run as a page. */
function sendRaw(reply: FastifyReply, bytes: Buffer): FastifyReply {
  const text = !bytes.subarray(0, 8000).includes(0);
  return reply.type(text ? 'text/plain; charset=utf-8' : 'application/octet-stream')
    .header('x-content-type-options', 'nosniff').header('content-security-policy', "default-src 'none'; sandbox")
    .send(bytes);
}

export function webRoutes(app: Router): void {
  addPageConstraint(app as unknown as FastifyInstance);

  app.register(async (scope: FastifyInstance) => {
    registerPageScope(scope);
    const pageErrors = scope.errorHandler;
    scope.setErrorHandler(async (error, request, reply) => {
      // A renamed repository: its page at the new name (the API's own answer points at the API).
      if (error instanceof MovedPermanentlyError && error.rewrite) {
        const from = error.rewrite.from.replace(/^\/repos/, '');
        const path = request.originalUrl ?? request.url;
        if (path === from || path.startsWith(`${from}/`) || path.startsWith(`${from}?`)) {
          return reply.redirect(`${error.rewrite.to.replace(/^\/repos/, '')}${path.slice(from.length)}`, 301);
        }
      }
      return pageErrors.call(scope, error, request, reply);
    });
    const r = scope as unknown as Router;
    const ctx = app.ctx;

    r.get('/', { constraints: BROWSER_ONLY, config: { ...PAGE, operationId: 'wharf/web-home' } }, async (request, reply) => {
      const viewer = await viewerOf(request);
      return sendPage(reply, homePage(viewer.frame(viewer.session ? 'Home' : 'Welcome'), await web.home(ctx, viewer.actor)));
    });

    // The raw file address is the API's download_url too: a browser gets it with its session's rights.
    r.get('/:owner/:repo/raw/*', { constraints: BROWSER_ONLY, schema: { params: RepoRestParams }, config: { ...PAGE, operationId: 'wharf/web-raw' } }, async (request, reply) => {
      const { owner, repo, '*': rest } = request.params;
      const viewer = await viewerOf(request);
      return sendRaw(reply, await web.rawFile(ctx, viewer.actor, owner, repo, rest));
    });

    r.get('/:login', { schema: { params: LoginParams, querystring: PageQuery }, config: { ...PAGE, operationId: 'wharf/web-profile' } }, async (request, reply) => {
      const viewer = await viewerOf(request);
      const v = await web.profile(ctx, viewer.actor, request.params.login, pageNumber(request.query.page));
      return sendPage(reply, profilePage(viewer.frame(v.account.login), v));
    });

    r.get('/:owner/:repo', { schema: { params: RepoParams }, config: { ...PAGE, operationId: 'wharf/web-repository' } }, async (request, reply) => {
      const { owner, repo } = request.params;
      const viewer = await viewerOf(request);
      const v = await web.treeAt(ctx, viewer.actor, owner, repo, null);
      return sendPage(reply, treePage(viewer.frame(`${v.repo.owner.login}/${v.repo.name}`), v, ctx.urls));
    });

    r.get('/:owner/:repo/tree/*', { schema: { params: RepoRestParams }, config: { ...PAGE, operationId: 'wharf/web-tree' } }, async (request, reply) => {
      const { owner, repo, '*': rest } = request.params;
      const viewer = await viewerOf(request);
      const v = await web.treeAt(ctx, viewer.actor, owner, repo, rest);
      return sendPage(reply, treePage(viewer.frame(`${v.path || v.repo.name} at ${v.ref} · ${v.repo.owner.login}/${v.repo.name}`), v, ctx.urls));
    });

    r.get('/:owner/:repo/blob/*', { schema: { params: RepoRestParams }, config: { ...PAGE, operationId: 'wharf/web-blob' } }, async (request, reply) => {
      const { owner, repo, '*': rest } = request.params;
      const viewer = await viewerOf(request);
      const v = await web.blobAt(ctx, viewer.actor, owner, repo, rest);
      return sendPage(reply, blobPage(viewer.frame(`${v.path} at ${v.ref} · ${v.repo.owner.login}/${v.repo.name}`), v));
    });

    for (const path of ['/:owner/:repo/commits', '/:owner/:repo/commits/*']) {
      r.get(path, { schema: { params: RepoParams, querystring: CommitsQuery }, config: { ...PAGE, operationId: 'wharf/web-commits' } }, async (request, reply) => {
        const { owner, repo } = request.params;
        const ref = (request.params as { '*'?: string })['*']?.replace(/^\/+|\/+$/g, '') || null;
        const viewer = await viewerOf(request);
        const v = await web.commitsAt(ctx, viewer.actor, owner, repo, ref, request.query.path ?? '', pageNumber(request.query.page));
        return sendPage(reply, commitsPage(viewer.frame(`Commits · ${v.repo.owner.login}/${v.repo.name}`), v));
      });
    }

    r.get('/:owner/:repo/commit/:sha', { schema: { params: ShaParams }, config: { ...PAGE, operationId: 'wharf/web-commit' } }, async (request, reply) => {
      const { owner, repo, sha } = request.params;
      const viewer = await viewerOf(request);
      const v = await web.commitAt(ctx, viewer.actor, owner, repo, sha).catch((err: unknown) => {
        // An unknown commit is a page that is not there (the API answers it as a 422).
        throw err instanceof ValidationError ? new NotFoundError() : err;
      });
      const d = v.detail;
      return sendPage(reply, commitPage(viewer.frame(`${d.commit.parsed.message.split('\n')[0]} · ${d.repo.owner.login}/${d.repo.name}`), v));
    });

    // ---------------------------------------------------------------- issues

    r.get('/:owner/:repo/issues', { schema: { params: RepoParams, querystring: IssuesQuery }, config: { ...PAGE, operationId: 'wharf/web-issues' } }, async (request, reply) => {
      const { owner, repo } = request.params;
      const q = request.query;
      const state = q.state === 'closed' || q.state === 'all' ? q.state : 'open';
      const viewer = await viewerOf(request);
      const v = await web.issueList(ctx, viewer.actor, owner, repo, { state, labels: q.labels ?? '', page: pageNumber(q.page) });
      return sendPage(reply, issuesPage(viewer.frame(`Issues · ${v.repo.owner.login}/${v.repo.name}`), v));
    });

    r.get('/:owner/:repo/issues/new', { schema: { params: RepoParams }, config: { ...PAGE, operationId: 'wharf/web-new-issue' } }, async (request, reply) => {
      const { owner, repo } = request.params;
      const viewer = await viewerOf(request);
      if (!viewer.session) return redirectToLogin(request, reply);
      const located = await web.newIssueRepo(ctx, viewer.actor, owner, repo);
      return sendPage(reply, newIssuePage(viewer.frame('New issue'), located.repo, { title: '', body: '', errors: [] }));
    });

    r.post('/:owner/:repo/issues', { schema: { params: RepoParams, body: IssueForm }, config: { ...PAGE, operationId: 'wharf/web-create-issue' } }, async (request, reply) => {
      const { owner, repo } = request.params;
      const form = request.body;
      return signedInPost(request, reply, form.authenticity_token, async (viewer) => {
        try {
          const number = await web.openIssue(ctx, viewer.actor, owner, repo, form.title ?? '', form.body ?? '');
          const located = await web.newIssueRepo(ctx, viewer.actor, owner, repo);
          return reply.redirect(repoPath(located.repo, 'issues', number), 303);
        } catch (err) {
          const { status, messages } = formErrors(err);
          const located = await web.newIssueRepo(ctx, viewer.actor, owner, repo);
          return sendPage(reply.code(status), newIssuePage(viewer.frame('New issue'), located.repo, { title: form.title ?? '', body: form.body ?? '', errors: messages }));
        }
      });
    });

    r.get('/:owner/:repo/issues/:number', { schema: { params: NumberParams }, config: { ...PAGE, operationId: 'wharf/web-issue' } }, async (request, reply) => {
      const { owner, repo, number } = request.params;
      const viewer = await viewerOf(request);
      const v = await web.issuePage(ctx, viewer.actor, owner, repo, issueNumber(number));
      // A pull request's number under /issues/ shows it where it lives, as upstream redirects.
      if (v.issue.record.isPullRequest) return reply.redirect(issuePath(v.repo, v.issue.record), 302);
      return sendPage(reply, issuePage(viewer.frame(`${v.issue.record.title} · Issue #${number}`), v));
    });

    const commentRoutes = [
      { kind: 'issues', names: { operationId: 'wharf/web-issue-comment' } },
      { kind: 'pull', names: { operationId: 'wharf/web-pull-comment' } },
    ] as const;
    for (const { kind, names } of commentRoutes) {
      r.post(`/:owner/:repo/${kind}/:number/comments`, { schema: { params: NumberParams, body: CommentForm }, config: { ...PAGE, ...names } }, async (request, reply) => {
        const { owner, repo } = request.params;
        const number = issueNumber(request.params.number);
        const body = request.body.body ?? '';
        return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
          try {
            await web.addComment(ctx, viewer.actor, owner, repo, number, body);
            const v = await web.issuePage(ctx, viewer.actor, owner, repo, number);
            const last = v.comments[v.comments.length - 1];
            return reply.redirect(`${issuePath(v.repo, v.issue.record)}${last ? `#comment-${last.record.id}` : ''}`, 303);
          } catch (err) {
            const { status, messages } = formErrors(err);
            const form = { body, errors: messages };
            if (kind === 'pull') {
              const v = await web.pullPage(ctx, viewer.actor, owner, repo, number);
              return sendPage(reply.code(status), pullPage(viewer.frame(`${v.issue.record.title} · Pull request #${number}`), v, form));
            }
            const v = await web.issuePage(ctx, viewer.actor, owner, repo, number);
            return sendPage(reply.code(status), issuePage(viewer.frame(`${v.issue.record.title} · Issue #${number}`), v, form));
          }
        });
      });
    }

    // ---------------------------------------------------------------- pull requests

    r.get('/:owner/:repo/pulls', { schema: { params: RepoParams, querystring: IssuesQuery }, config: { ...PAGE, operationId: 'wharf/web-pulls' } }, async (request, reply) => {
      const { owner, repo } = request.params;
      const q = request.query;
      const state = q.state === 'closed' || q.state === 'all' ? q.state : 'open';
      const viewer = await viewerOf(request);
      const v = await web.pullList(ctx, viewer.actor, owner, repo, state, pageNumber(q.page));
      return sendPage(reply, pullsPage(viewer.frame(`Pull requests · ${v.repo.owner.login}/${v.repo.name}`), v));
    });

    r.get('/:owner/:repo/pull/:number', { schema: { params: NumberParams }, config: { ...PAGE, operationId: 'wharf/web-pull' } }, async (request, reply) => {
      const { owner, repo, number } = request.params;
      const viewer = await viewerOf(request);
      const v = await web.pullPage(ctx, viewer.actor, owner, repo, issueNumber(number));
      return sendPage(reply, pullPage(viewer.frame(`${v.issue.record.title} · Pull request #${number}`), v));
    });

    r.post('/:owner/:repo/pull/:number/merge', { schema: { params: NumberParams, body: MergeForm }, config: { ...PAGE, operationId: 'wharf/web-merge-pull' } }, async (request, reply) => {
      const { owner, repo } = request.params;
      const number = issueNumber(request.params.number);
      const sha = request.body.sha;
      return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
        try {
          // The head the page showed: a branch pushed to since is refused, as the API's sha guard does.
          await web.mergePull(ctx, viewer.actor, owner, repo, number, { mergeMethod: 'merge', ...(sha ? { sha } : {}) });
          const v = await web.pullPage(ctx, viewer.actor, owner, repo, number);
          return reply.redirect(repoPath(v.repo, 'pull', number), 303);
        } catch (err) {
          const { status, messages } = formErrors(err);
          const v = await web.pullPage(ctx, viewer.actor, owner, repo, number);
          return sendPage(reply.code(status), pullPage(viewer.frame(`${v.issue.record.title} · Pull request #${number}`), v, undefined, messages));
        }
      });
    });
  });
}
