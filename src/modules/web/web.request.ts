// What each web page needs from its request: who is looking (the signed-in session or
// nobody: the same actor the services see through the API), the page frame, and which
// requests are a browser's at all (content negotiation at the API's own addresses).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { anonymousActor, type Actor } from '../../domain/actor.ts';
import { DomainError } from '../../domain/errors.ts';
import { adminRepoId } from './repo-settings.service.ts';
import { actorOf, sessionOf } from '../web-session/web-request.ts';
import { csrfTokenOf, type WebSession } from '../web-session/web-session.service.ts';
import type { Frame } from './web.render.ts';

export interface Viewer {
  session: WebSession | null;
  actor: Actor;
  frame: (title: string) => Frame;
}

/**
 * The repository of a page's address (`/:owner/:repo/…`) when the viewer administers it:
 * every repository page shows its Settings tab to admins (repo.layout.ts). A repository
 * that is not there, or not visible, is the page's own answer to give: here it is none.
 */
async function administered(request: FastifyRequest, actor: Actor): Promise<number[]> {
  const { owner, repo } = (request.params ?? {}) as { owner?: unknown; repo?: unknown };
  if (!actor.user || typeof owner !== 'string' || typeof repo !== 'string') return [];
  try {
    const id = await adminRepoId(request.server.ctx, actor, owner, repo);
    return id === null ? [] : [id];
  } catch (err) {
    if (err instanceof DomainError) return [];
    throw err;
  }
}

/** The signed-in user (with every right the account has, as on the settings pages) or an anonymous reader. */
export async function viewerOf(request: FastifyRequest): Promise<Viewer> {
  const session = await sessionOf(request);
  const actor = session ? actorOf(request, session) : anonymousActor(request.ip);
  const path = (request.originalUrl ?? request.url).split('#')[0]!;
  const adminOf = session ? await administered(request, actor) : [];
  return {
    session, actor,
    frame: (title) => ({ title, user: session?.user ?? null, csrf: session ? csrfTokenOf(session) : null, path, adminOf }),
  };
}

/** The quality a media range gives `type` (0 when the Accept header does not name it, nor a wildcard covering it). */
function qualityOf(accept: string, type: string): { q: number; exact: boolean } {
  let best = { q: 0, exact: false };
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith('q='))?.slice(2) ?? '1');
    const r = range!.trim();
    const exact = r === type;
    if (exact) return { q: Number.isFinite(q) ? q : 0, exact: true };
    if (r === '*/*' || r === `${type.split('/')[0]}/*`) best = { q: Number.isFinite(q) ? q : 0, exact: false };
  }
  return best;
}

/**
 * True for a browser asking for a page: a GET or HEAD outside /api/, whose Accept names
 * text/html and rates it at least as high as JSON. curl's * / *, Octokit's
 * application/vnd.github+json and a missing Accept are API clients.
 */
export function prefersHtml(req: IncomingMessage & { originalUrl?: string }): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if ((req.originalUrl ?? req.url ?? '').startsWith('/api/')) return false;
  const accept = req.headers.accept;
  if (!accept) return false;
  const html = qualityOf(accept, 'text/html');
  if (!html.exact || html.q === 0) return false;
  const json = Math.max(qualityOf(accept, 'application/json').q, /application\/vnd\.github/i.test(accept) ? 1 : 0);
  return html.q >= json;
}

/** The route constraint `{ wharfPage: 'html' }`: a path the API also answers goes to the page only for a browser. */
export const PAGE_CONSTRAINT = 'wharfPage';

export function addPageConstraint(app: FastifyInstance): void {
  if (app.hasConstraintStrategy(PAGE_CONSTRAINT)) return;
  app.addConstraintStrategy({
    name: PAGE_CONSTRAINT,
    storage() {
      const handlers = new Map();
      return {
        get: (value) => handlers.get(value) ?? null,
        set: (value, handler) => { handlers.set(value, handler); },
      };
    },
    deriveConstraint: (req: IncomingMessage) => (prefersHtml(req) ? 'html' : 'api'),
    mustMatchWhenDerived: false,
    validate(value: unknown) {
      if (value !== 'html') throw new Error('wharfPage constraint: only "html"');
    },
  });
}
