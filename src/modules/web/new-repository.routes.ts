// The new repository page (/new) and its post: the repository is created through the
// service POST /user/repos and POST /orgs/{org}/repos use (new-repository.service.ts),
// then the browser goes to its page; a refusal is shown inline and creates nothing.
import type { Router } from '../../http/router.ts';
import { redirectToLogin, sendPage } from '../web-session/web-request.ts';
import { repoPath } from './repo.layout.ts';
import { emptyNewRepo, NEW_REPO_PATH, newRepositoryPage } from './new-repository.pages.ts';
import * as newRepo from './new-repository.service.ts';
import { NewRepoForm } from './settings.schemas.ts';
import { formErrors, PAGE, signedInPost } from './web.forms.ts';
import { viewerOf } from './web.request.ts';

function fieldsOf(b: NewRepoForm): newRepo.NewRepoFields {
  return {
    owner: (b.owner ?? '').trim(), name: (b.name ?? '').trim(), description: b.description ?? '',
    visibility: b.visibility === 'private' ? 'private' : 'public', autoInit: b.auto_init === '1',
  };
}

/** Registered inside the pages' scope (web.routes.ts). */
export function newRepositoryPages(r: Router): void {
  const ctx = r.ctx;

  r.get(NEW_REPO_PATH, { config: { ...PAGE, operationId: 'wharf/web-new-repository' } }, async (request, reply) => {
    const viewer = await viewerOf(request);
    if (!viewer.session) return redirectToLogin(request, reply);
    const owners = await newRepo.ownersFor(ctx, viewer.actor);
    return sendPage(reply, newRepositoryPage(viewer.frame('New repository'), owners, { fields: emptyNewRepo(viewer.session.user.login), errors: [] }));
  });

  r.post(NEW_REPO_PATH, { schema: { body: NewRepoForm }, config: { ...PAGE, operationId: 'wharf/web-create-repository' } }, async (request, reply) => {
    const f = fieldsOf(request.body);
    return signedInPost(request, reply, request.body.authenticity_token, async (viewer) => {
      try {
        const created = await newRepo.createRepository(ctx, viewer.actor, f);
        // The repository's html_url, as the other forms' redirects, by its path.
        return reply.redirect(repoPath(created.repo), 303);
      } catch (err) {
        const { status, messages } = formErrors(err);
        const owners = await newRepo.ownersFor(ctx, viewer.actor);
        return sendPage(reply.code(status), newRepositoryPage(viewer.frame('New repository'), owners, { fields: f, errors: messages }));
      }
    });
  });
}
