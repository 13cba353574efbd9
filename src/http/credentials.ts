// Authorization header → credentials. Credentials in the query string are refused.
import type { FastifyRequest } from 'fastify';
import type { Credentials } from '../domain/actor.ts';
import { BadCredentialsError } from '../domain/errors.ts';
import { HttpError } from './errors.ts';

export function credentialsOf(request: FastifyRequest): Credentials {
  const q = request.query as Record<string, unknown> | undefined;
  if (q && (q.access_token !== undefined || q.client_secret !== undefined)) {
    throw new HttpError(400, 'Passing credentials in query parameters is not supported. Send them in the Authorization header instead.');
  }
  const header = request.headers.authorization;
  if (!header) return { kind: 'none' };
  const space = header.indexOf(' ');
  const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
  const value = space < 0 ? '' : header.slice(space + 1).trim();
  if ((scheme === 'token' || scheme === 'bearer') && value) return { kind: 'token', token: value };
  if (scheme === 'basic' && value) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return { kind: 'basic', login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  throw new BadCredentialsError();
}
