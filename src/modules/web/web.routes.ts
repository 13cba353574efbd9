// The web interface at the addresses the API hands out as html_url: the home page,
// profiles, a repository's code, history, issues and pull requests. Each handler asks
// its service for the page's data (the API's own services, with the viewer as actor)
// and renders it. `/` and the raw file address are shared with the API: there the page
// answers only a browser (the wharfPage constraint); everyone else keeps the JSON. The code, conversation,
// reaction, refs, milestones, blame and profile pages register in the same scope (code.routes.ts, conversations.routes.ts,
// reactions.routes.ts, refs.routes.ts, milestones.routes.ts, blame.routes.ts, profiles.routes.ts,
// repo-settings.routes.ts, branch-protection.routes.ts, org-settings.routes.ts, stafftools.routes.ts,
// new-repository.routes.ts).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Router } from '../../http/router.ts';
import { MovedPermanentlyError } from '../../domain/errors.ts';
import { registerPageScope, sendPage } from '../web-session/web-request.ts';
import { blamePages } from './blame.routes.ts';
import { branchProtectionPages } from './branch-protection.routes.ts';
import { rulesetPages } from './rulesets.routes.ts';
import { codePages } from './code.routes.ts';
import * as code from './code.service.ts';
import { conversationPages } from './conversations.routes.ts';
import { homePage } from './home.pages.ts';
import { milestonePages } from './milestones.routes.ts';
import { newRepositoryPages } from './new-repository.routes.ts';
import { orgSettingsPages } from './org-settings.routes.ts';
import { orgRulesetPages } from './org-rulesets.routes.ts';
import { profilePages } from './profiles.routes.ts';
import { reactionPages } from './reactions.routes.ts';
import { refsPages } from './refs.routes.ts';
import { repoSettingsPages } from './repo-settings.routes.ts';
import { stafftoolsPages } from './stafftools.routes.ts';
import { BROWSER_ONLY, PAGE } from './web.forms.ts';
import { addPageConstraint, viewerOf } from './web.request.ts';
import { RepoRestParams } from './web.schemas.ts';
import * as web from './web.service.ts';

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
    registerPageScope(scope, (error, request, reply) => {
      // A renamed repository: its page at the new name (the API's own answer points at the API).
      if (!(error instanceof MovedPermanentlyError) || !error.rewrite) return null;
      const from = error.rewrite.from.replace(/^\/repos/, '');
      const path = request.originalUrl ?? request.url;
      if (path !== from && !path.startsWith(`${from}/`) && !path.startsWith(`${from}?`)) return null;
      return reply.redirect(`${error.rewrite.to.replace(/^\/repos/, '')}${path.slice(from.length)}`, 301);
    });
    const r = scope as unknown as Router;
    const ctx = app.ctx;

    r.get('/', { constraints: BROWSER_ONLY, config: { ...PAGE, operationId: 'wharf/web-home' } }, async (request, reply) => {
      const viewer = await viewerOf(request);
      // The same address answers JSON to API clients: a cache keeps the two apart by Accept.
      return sendPage(reply.header('vary', 'Accept'), homePage(viewer.frame(viewer.session ? 'Home' : 'Welcome'), await web.home(ctx, viewer.actor)));
    });

    // The raw file address is the API's download_url too: a browser gets it with its session's rights.
    r.get('/:owner/:repo/raw/*', { constraints: BROWSER_ONLY, schema: { params: RepoRestParams }, config: { ...PAGE, operationId: 'wharf/web-raw' } }, async (request, reply) => {
      const { owner, repo, '*': rest } = request.params;
      const viewer = await viewerOf(request);
      return sendRaw(reply.header('vary', 'Accept'), await code.rawFile(ctx, viewer.actor, owner, repo, rest));
    });

    codePages(r);
    conversationPages(r);
    reactionPages(r);
    refsPages(r);
    milestonePages(r);
    blamePages(r);
    profilePages(r);
    repoSettingsPages(r);
    branchProtectionPages(r);
    rulesetPages(r);
    orgSettingsPages(r);
    orgRulesetPages(r);
    stafftoolsPages(r);
    newRepositoryPages(r);
  });
}
