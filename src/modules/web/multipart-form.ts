// multipart/form-data, as a browser posts a form with a file (the release asset upload):
// its text fields as strings (a repeated field keeps its first value, as form-body.ts)
// and its file parts by field name. Only the route that uploads registers this parser,
// in a scope of its own; every other page reads urlencoded forms alone.
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../http/errors.ts';

export interface FilePart {
  /** The name the browser gave ('' when no file was chosen). */
  filename: string;
  contentType: string;
  bytes: Buffer;
}

export type MultipartBody = Record<string, string | FilePart>;

export function isFilePart(v: unknown): v is FilePart {
  return typeof v === 'object' && v !== null && Buffer.isBuffer((v as FilePart).bytes);
}

function boundaryOf(contentType: string): string | null {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]!) : null;
}

/** A header's parameter (`name="…"`), with the quoted escapes browsers write. */
function param(header: string, key: string): string | null {
  const m = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header);
  return m ? m[1]!.replace(/\\(.)/g, '$1').replace(/%22/g, '"') : null;
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

export function parseMultipart(body: Buffer, contentType: string): MultipartBody {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw new HttpError(400, 'Problems parsing the form body: no boundary');
  const open = Buffer.from(`--${boundary}`);
  const between = Buffer.from(`\r\n--${boundary}`);
  const out: MultipartBody = Object.create(null) as MultipartBody;
  let pos = body.indexOf(open);
  if (pos < 0) throw new HttpError(400, 'Problems parsing the form body');
  pos += open.length;
  for (;;) {
    if (body.subarray(pos, pos + 2).toString('latin1') === '--') break;
    if (!body.subarray(pos, pos + 2).equals(CRLF)) throw new HttpError(400, 'Problems parsing the form body');
    const headEnd = body.indexOf(HEAD_END, pos + 2);
    if (headEnd < 0) throw new HttpError(400, 'Problems parsing the form body');
    const headers = body.subarray(pos + 2, headEnd).toString('utf8').split('\r\n');
    const start = headEnd + HEAD_END.length;
    const end = body.indexOf(between, start);
    if (end < 0) throw new HttpError(400, 'Problems parsing the form body');
    const disposition = headers.find((l) => /^content-disposition:/i.test(l)) ?? '';
    const type = headers.find((l) => /^content-type:/i.test(l))?.replace(/^content-type:\s*/i, '').trim();
    const name = param(disposition, 'name');
    const filename = param(disposition, 'filename');
    if (name !== null && !(name in out)) {
      const bytes = body.subarray(start, end);
      out[name] = filename !== null ? { filename, contentType: type || 'application/octet-stream', bytes: Buffer.from(bytes) } : bytes.toString('utf8');
    }
    pos = end + between.length;
  }
  return { ...out };
}

/** Reads multipart bodies in `scope`, up to `limit` bytes. */
export function registerMultipartBody(scope: FastifyInstance, limit: number): void {
  scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: limit }, (request, body, done) => {
    try {
      done(null, parseMultipart(body as Buffer, String(request.headers['content-type'] ?? '')));
    } catch (err) {
      done(err instanceof HttpError ? err : new HttpError(400, 'Problems parsing the form body'));
    }
  });
}
