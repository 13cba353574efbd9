// {base}/{owner}/{repo}(.git)/info/refs, git-upload-pack, git-receive-pack.
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { BadRequestError } from '../../domain/errors.ts';
import { runHttpBackend } from '../../git/http-backend.ts';
import * as git from '../../git/repository.ts';
import type { Router } from '../../http/router.ts';
import type { GitService } from './git-http.service.ts';
import { openGitSession } from './git-http.session.ts';

/** The services smart HTTP serves (upload-archive is SSH's only, as upstream). */
type HttpGitService = Exclude<GitService, 'git-upload-archive'>;

const Params = Type.Object({ owner: Type.String(), repo: Type.String() });
const RefsQuery = Type.Object({ service: Type.Optional(Type.String()) });
const GIT_CONTENT_TYPES = ['application/x-git-upload-pack-request', 'application/x-git-receive-pack-request'];

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

async function serve(request: FastifyRequest, reply: FastifyReply, owner: string, rawName: string, service: HttpGitService, tail: string): Promise<FastifyReply> {
  const { ctx } = request.server;
  const session = await openGitSession(ctx, request.actor, owner, rawName, service, { push: service === 'git-receive-pack' && request.method === 'POST' });
  const res = await runHttpBackend({
    projectRoot: git.reposRoot(ctx.config.dataDir),
    pathInfo: `/${session.repo.id}.git/${tail}`,
    method: request.method === 'HEAD' ? 'GET' : request.method,
    query: new URL(request.url, 'http://x').search.slice(1),
    contentType: header(request, 'content-type'),
    contentEncoding: header(request, 'content-encoding'),
    contentLength: header(request, 'content-length'),
    gitProtocol: header(request, 'git-protocol'),
    remoteUser: request.actor.user?.login,
    remoteAddr: request.ip,
    body: request.method === 'POST' ? (request.body as Readable) : undefined,
    env: session.env,
  }).catch(async (err: unknown) => {
    await session.settle();
    throw err;
  });
  if (session.push) {
    // The push is acknowledged once git has exited (its report is the response), and
    // recorded after: what Wharf does on a push does not keep the client waiting.
    void res.exited.then(() => { session.settleInBackground(); res.finish(); });
  } else {
    res.finish();
  }
  return reply.code(res.status).headers(res.headers).send(res.body);
}

export function gitHttpRoutes(app: Router): void {
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    // Pack data streams straight through to git; nothing parses it.
    scope.addContentTypeParser(GIT_CONTENT_TYPES, (_request, payload, done) => done(null, payload));
    // git's protocol answers raw bytes from git http-backend: no response schema.
    const config = { rateLimit: 'none' as const, authChallenge: true, rawResponse: true };

    scope.get('/:owner/:repo/info/refs', {
      schema: { params: Params, querystring: RefsQuery },
      config: { ...config, operationId: 'git/info-refs' },
    }, async (request, reply) => {
      const service = request.query.service;
      if (service !== 'git-upload-pack' && service !== 'git-receive-pack') {
        throw new BadRequestError('Only the smart HTTP protocol is served: use git 1.6.6 or later.');
      }
      return serve(request, reply, request.params.owner, request.params.repo, service, 'info/refs');
    });

    for (const service of ['git-upload-pack', 'git-receive-pack'] as const) {
      scope.post(`/:owner/:repo/${service}`, {
        schema: { params: Params },
        config: { ...config, operationId: `git/${service}` },
      }, async (request, reply) => serve(request, reply, request.params.owner, request.params.repo, service, service));
    }
  });
}
