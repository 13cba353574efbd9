// git's smart HTTP protocol, served by `git http-backend` (CGI) behind Wharf's own
// authentication: this file turns one HTTP request into one CGI run and back.
import { spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { gitEnv } from './run.ts';

export interface CgiRequest {
  /** Directory holding the repositories (GIT_PROJECT_ROOT). */
  projectRoot: string;
  /** Path below the root, e.g. "/12.git/info/refs". */
  pathInfo: string;
  method: string;
  query: string;
  contentType?: string;
  contentEncoding?: string;
  contentLength?: string;
  gitProtocol?: string;
  remoteUser?: string;
  remoteAddr: string;
  body?: Readable;
  /** More environment for git (protected-push's hook settings). */
  env?: Record<string, string>;
}

export interface CgiResponse {
  status: number;
  headers: Record<string, string>;
  body: PassThrough;
  /** Resolves with git's exit code once it has finished. */
  exited: Promise<number>;
}

/**
 * Runs http-backend and resolves once its CGI headers are read. The body stream
 * is left open until `finish` is called, so that what must precede the end of the
 * response (a push's recording put under way, which the pusher's next requests wait
 * for: git/push-recordings.ts) happens before the client hears it.
 */
export function runHttpBackend(req: CgiRequest): Promise<CgiResponse & { finish(): void }> {
  const child = spawn('git', ['http-backend'], {
    env: gitEnv({
      GIT_PROJECT_ROOT: req.projectRoot,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: req.pathInfo,
      REQUEST_METHOD: req.method,
      QUERY_STRING: req.query,
      REMOTE_ADDR: req.remoteAddr,
      ...(req.contentType ? { CONTENT_TYPE: req.contentType } : {}),
      ...(req.contentLength ? { CONTENT_LENGTH: req.contentLength } : {}),
      ...(req.contentEncoding ? { HTTP_CONTENT_ENCODING: req.contentEncoding } : {}),
      ...(req.gitProtocol ? { GIT_PROTOCOL: req.gitProtocol } : {}),
      ...(req.remoteUser ? { REMOTE_USER: req.remoteUser } : {}),
      ...req.env,
    }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (req.body) req.body.pipe(child.stdin);
  else child.stdin.end();
  child.stdin.on('error', () => { /* the backend may stop reading early; its exit code tells */ });

  let stderr = '';
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));

  return new Promise((resolve, reject) => {
    const body = new PassThrough();
    let head = Buffer.alloc(0);
    let parsed = false;
    let holdEnd = true;
    let ended = false;
    const finish = () => { holdEnd = false; if (ended) body.end(); };
    child.on('error', reject);
    child.stdout.on('data', (chunk: Buffer) => {
      if (parsed) { body.write(chunk); return; }
      head = Buffer.concat([head, chunk]);
      const sep = head.indexOf('\r\n\r\n');
      const alt = sep < 0 ? head.indexOf('\n\n') : -1;
      if (sep < 0 && alt < 0) return;
      const end = sep >= 0 ? sep : alt;
      const headerText = head.subarray(0, end).toString('latin1');
      const rest = head.subarray(end + (sep >= 0 ? 4 : 2));
      parsed = true;
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of headerText.split(/\r?\n/)) {
        const i = line.indexOf(':');
        if (i < 0) continue;
        const name = line.slice(0, i).trim().toLowerCase();
        const value = line.slice(i + 1).trim();
        if (name === 'status') status = Number.parseInt(value, 10) || 200;
        else headers[name] = value;
      }
      if (rest.length) body.write(rest);
      resolve({ status, headers, body, exited, finish });
    });
    child.stdout.on('end', () => {
      if (!parsed) {
        reject(new Error(`git http-backend produced no response: ${stderr.trim()}`));
        return;
      }
      ended = true;
      if (!holdEnd) body.end();
    });
  });
}
