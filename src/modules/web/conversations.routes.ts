// Issues and pull requests: the lists, one issue or pull request, the new-issue and
// comment forms, the review form and the merge button's post (the line comment form's
// post registers beside them, line-comments.routes.ts).
import type { Router } from '../../http/router.ts';
import { redirectToLogin, sendPage } from '../web-session/web-request.ts';
import * as web from './conversations.service.ts';
import { issuePage, issuePath, issuesPage, labelsPage, newIssuePage } from './issues.pages.ts';
import { pullPage, pullsPage } from './pulls.pages.ts';
import { lineCommentPages, lineFormOf, PullPageQuery } from './line-comments.routes.ts';
import { reviewThreadPages } from './review-threads.routes.ts';
import { repoPath } from './repo.layout.ts';
import { formErrors, issueNumber, PAGE, pageNumber, signedInPost } from './web.forms.ts';
import { viewerOf } from './web.request.ts';
import { CommentForm, IssueForm, IssuesQuery, MergeForm, NumberParams, PageQuery, RepoParams, ReviewForm } from './web.schemas.ts';

/** Registered inside the pages' scope (web.routes.ts). */
export function conversationPages(r: Router): void {
  const ctx = r.ctx;

  // ---------------------------------------------------------------- issues

  r.get('/:owner/:repo/issues', { schema: { params: RepoParams, querystring: IssuesQuery }, config: { ...PAGE, operationId: 'wharf/web-issues' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const q = request.query;
    const state = q.state === 'closed' || q.state === 'all' ? q.state : 'open';
    const viewer = await viewerOf(request);
    const v = await web.issueList(ctx, viewer.actor, owner, repo, { state, labels: q.labels ?? '', milestone: q.milestone ?? '', page: pageNumber(q.page) });
    return sendPage(reply, issuesPage(viewer.frame(`Issues · ${v.repo.owner.login}/${v.repo.name}`), v));
  });

  r.get('/:owner/:repo/labels', { schema: { params: RepoParams, querystring: PageQuery }, config: { ...PAGE, operationId: 'wharf/web-labels' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const page = pageNumber(request.query.page);
    const viewer = await viewerOf(request);
    const v = await web.labelList(ctx, viewer.actor, owner, repo, page);
    return sendPage(reply, labelsPage(viewer.frame(`Labels · ${v.repo.owner.login}/${v.repo.name}`), v, page));
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
            return sendPage(reply.code(status), pullPage(viewer.frame(`${v.issue.record.title} · Pull request #${number}`), v, { comment: form }));
          }
          const v = await web.issuePage(ctx, viewer.actor, owner, repo, number);
          return sendPage(reply.code(status), issuePage(viewer.frame(`${v.issue.record.title} · Issue #${number}`), v, { comment: form }));
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

  r.get('/:owner/:repo/pull/:number', { schema: { params: NumberParams, querystring: PullPageQuery }, config: { ...PAGE, operationId: 'wharf/web-pull' } }, async (request, reply) => {
    const { owner, repo, number } = request.params;
    const viewer = await viewerOf(request);
    const v = await web.pullPage(ctx, viewer.actor, owner, repo, issueNumber(number));
    const line = lineFormOf(request.query);
    return sendPage(reply, pullPage(viewer.frame(`${v.issue.record.title} · Pull request #${number}`), v, line ? { line } : {}));
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
        return sendPage(reply.code(status), pullPage(viewer.frame(`${v.issue.record.title} · Pull request #${number}`), v, { merge: messages }));
      }
    });
  });

  r.post('/:owner/:repo/pull/:number/reviews', { schema: { params: NumberParams, body: ReviewForm }, config: { ...PAGE, operationId: 'wharf/web-review-pull' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const number = issueNumber(request.params.number);
    const { body = '', event } = request.body;
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        const made = await web.submitReview(ctx, viewer.actor, owner, repo, number, body, event);
        return reply.redirect(`${repoPath(made.repo, 'pull', number)}#review-${made.review.id}`, 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const v = await web.pullPage(ctx, viewer.actor, owner, repo, number);
        const review = { body, event: event ?? '', errors: messages };
        return sendPage(reply.code(status), pullPage(viewer.frame(`${v.issue.record.title} · Pull request #${number}`), v, { review }));
      }
    });
  });

  lineCommentPages(r);
  reviewThreadPages(r);
}
