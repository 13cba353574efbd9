// The milestones pages: the list at /{o}/{r}/milestones and one milestone at the
// html_url the milestones API hands out, /{o}/{r}/milestone/{number}; the new and edit
// forms and their posts (create, edit, close and reopen), through the milestones service.
import type { Router } from '../../http/router.ts';
import { redirectToLogin, sendPage } from '../web-session/web-request.ts';
import { editMilestonePage, milestoneFormOf, newMilestonePage, typedForm } from './milestone-forms.pages.ts';
import { milestonePage, milestonesPage } from './milestones.pages.ts';
import * as milestones from './milestones.service.ts';
import { formErrors, issueNumber, PAGE, pageNumber, signedInPost } from './web.forms.ts';
import { repoPath } from './repo.layout.ts';
import { viewerOf } from './web.request.ts';
import { MilestoneForm, MilestoneQuery, MilestonesQuery, NumberParams, RepoParams } from './web.schemas.ts';

/** Registered inside the pages' scope (web.routes.ts). */
export function milestonePages(r: Router): void {
  const ctx = r.ctx;

  r.get('/:owner/:repo/milestones', { schema: { params: RepoParams, querystring: MilestonesQuery }, config: { ...PAGE, operationId: 'wharf/web-milestones' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const q = request.query;
    const viewer = await viewerOf(request);
    const v = await milestones.milestonesOf(ctx, viewer.actor, owner, repo, q.state === 'closed' ? 'closed' : 'open',
      milestones.milestoneSort(q.sort, q.direction), pageNumber(q.page));
    return sendPage(reply, milestonesPage(viewer.frame(`Milestones · ${v.repo.owner.login}/${v.repo.name}`), v));
  });

  r.get('/:owner/:repo/milestone/:number', { schema: { params: NumberParams, querystring: MilestoneQuery }, config: { ...PAGE, operationId: 'wharf/web-milestone' } }, async (request, reply) => {
    const { owner, repo, number } = request.params;
    const q = request.query;
    const viewer = await viewerOf(request);
    const v = await milestones.milestoneAt(ctx, viewer.actor, owner, repo, issueNumber(number), q.closed === '1' ? 'closed' : 'open', pageNumber(q.page));
    return sendPage(reply, milestonePage(viewer.frame(`${v.entry.milestone.title} · Milestones · ${v.repo.owner.login}/${v.repo.name}`), v));
  });

  const fieldsOf = (b: MilestoneForm): milestones.MilestoneFields => ({
    ...(b.title !== undefined ? { title: b.title } : {}),
    ...(b.description !== undefined ? { description: b.description } : {}),
    ...(b.due_on !== undefined ? { dueOn: b.due_on } : {}),
    ...(b.state !== undefined ? { state: b.state } : {}),
  });

  r.get('/:owner/:repo/milestones/new', { schema: { params: RepoParams }, config: { ...PAGE, operationId: 'wharf/web-new-milestone' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const at = await milestones.editorRepo(ctx, viewer.actor, owner, repo);
    return sendPage(reply, newMilestonePage(viewer.frame('New milestone'), at, milestoneFormOf(null)));
  });

  r.post('/:owner/:repo/milestones', { schema: { params: RepoParams, body: MilestoneForm }, config: { ...PAGE, operationId: 'wharf/web-create-milestone' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const f = fieldsOf(request.body);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        const made = await milestones.createMilestone(ctx, viewer.actor, owner, repo, f);
        return reply.redirect(repoPath(made.repo, 'milestone', made.milestone.number), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const { repo: at } = await milestones.repoOf(ctx, viewer.actor, owner, repo);
        return sendPage(reply.code(status), newMilestonePage(viewer.frame('New milestone'), at, typedForm(milestoneFormOf(null), f, messages)));
      }
    });
  });

  r.get('/:owner/:repo/milestones/:number/edit', { schema: { params: NumberParams }, config: { ...PAGE, operationId: 'wharf/web-edit-milestone' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const number = issueNumber(request.params.number);
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const at = await milestones.editable(ctx, viewer.actor, owner, repo, number);
    return sendPage(reply, editMilestonePage(viewer.frame(`Edit ${at.milestone.title}`), at.repo, at.milestone, milestoneFormOf(at.milestone)));
  });

  r.post('/:owner/:repo/milestones/:number', { schema: { params: NumberParams, body: MilestoneForm }, config: { ...PAGE, operationId: 'wharf/web-update-milestone' } }, async (request, reply) => {
    const { owner, repo } = request.params;
    const number = issueNumber(request.params.number);
    const f = fieldsOf(request.body);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        const made = await milestones.updateMilestone(ctx, viewer.actor, owner, repo, number, f);
        return reply.redirect(repoPath(made.repo, 'milestone', made.milestone.number), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const at = await milestones.milestoneOf(ctx, viewer.actor, owner, repo, number);
        return sendPage(reply.code(status), editMilestonePage(viewer.frame(`Edit ${at.milestone.title}`), at.repo, at.milestone, typedForm(milestoneFormOf(at.milestone), f, messages)));
      }
    });
  });
}
