// HTML forms post application/x-www-form-urlencoded. Only the routes registered in a
// scope that calls registerFormBody read such bodies as forms: everywhere else a body
// is JSON whatever its Content-Type says (body.ts), as upstream's API treats it (curl -d
// sends JSON under the form type).
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.ts';

/** Enough for any form of the pages; larger bodies are refused before parsing. */
export const FORM_BODY_BYTES = 64 * 1024;

/** The fields of a form body; a repeated field keeps its first value. */
export function parseForm(text: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, value] of new URLSearchParams(text)) {
    if (!(key in out)) out[key] = value;
  }
  return { ...out };
}

export function registerFormBody(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_BYTES }, (_req, body, done) => {
    try {
      done(null, parseForm(body as string));
    } catch {
      done(new HttpError(400, 'Problems parsing the form body'));
    }
  });
}
