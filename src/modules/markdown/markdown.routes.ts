// POST /markdown, POST /markdown/raw.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Router } from '../../http/router.ts';
import { RenderedHtml, RenderMarkdownBody } from './markdown.schemas.ts';
import * as markdown from './markdown.service.ts';

const HTML = 'text/html; charset=utf-8';
/** Upstream: "Markdown content must be 400 KB or less." */
const MAX_RAW_BYTES = 400 * 1024;

export function markdownRoutes(app: Router): void {
  app.post('/markdown', {
    schema: { body: RenderMarkdownBody, response: { 200: RenderedHtml } },
    config: { operationId: 'markdown/render', resource: 'Markdown' },
  }, async (request, reply) => {
    const { text, mode, context } = request.body;
    return reply.type(HTML).send(await markdown.renderHtml(request.server.ctx, text, { mode, context }));
  });

  // The body is the Markdown itself, not JSON: a parser of its own, in a scope of its own.
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    scope.removeAllContentTypeParsers();
    // A Buffer passes the "body is an object" convention; no body at all arrives as {}.
    scope.addContentTypeParser(['text/plain', 'text/x-markdown'], { parseAs: 'buffer', bodyLimit: MAX_RAW_BYTES },
      (_request, body, done) => done(null, body));

    scope.post('/markdown/raw', {
      schema: { response: { 200: RenderedHtml } },
      config: { operationId: 'markdown/render-raw' },
    }, async (request, reply) => {
      const text = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
      return reply.type(HTML).send(await markdown.renderHtml(request.server.ctx, text));
    });
  });
}
