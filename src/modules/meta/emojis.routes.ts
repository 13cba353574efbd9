// GET /emojis: every emoji name → a URL of its image, as upstream. Wharf ships no emoji
// images: the URL is Wharf's own /emojis/{name}, which answers the emoji itself as
// text/plain (a client that shows text shows the emoji; one that wants a picture has none).
import { Type } from '@sinclair/typebox';
import { NotFoundError } from '../../domain/errors.ts';
import type { Router } from '../../http/router.ts';
import { emojiNames, emojiOf } from './emojis.ts';

export function emojisRoutes(app: Router): void {
  const names = emojiNames();
  app.get('/emojis', {
    schema: { response: { 200: Type.Record(Type.String(), Type.String()) } },
    config: { operationId: 'emojis/get' },
  // The base URL is known once the server listens, so the map is built per request.
  }, async (request) => Object.fromEntries(names.map((name) => [name, request.server.ctx.urls.api('emojis', name)])));

  app.get('/emojis/:name', {
    schema: { params: Type.Object({ name: Type.String({ maxLength: 100 }) }), response: { 200: Type.String() } },
    config: { operationId: 'wharf/emoji' },
  }, async (request, reply) => {
    const emoji = emojiOf(request.params.name);
    if (!emoji) throw new NotFoundError();
    return reply.type('text/plain; charset=utf-8').send(emoji);
  });
}
