// nginx (Debian's) as the load balancer in front of several Wharf processes: the
// configuration the README's recipe shows, written to a temporary prefix so that it
// needs nothing of the machine's nginx setup. Round robin over the processes; a POST
// already sent to a process that dies is not sent again (nginx's default for
// non-idempotent requests), so a client sees 502 and no write happens twice.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startChild, waitForHttp, type Child } from '../bench/children.ts';

export interface Nginx {
  base: string;
  child: Child;
  stop(): Promise<void>;
}

const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'];

/** The nginx binary, or null when none is installed. */
export function nginxBinary(): string | null {
  for (const candidate of NGINX) if (fs.existsSync(candidate)) return candidate;
  try {
    return execFileSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** The http block of the recipe: one upstream of every Wharf process, the proxy settings git and the API need. */
export function nginxSite(upstreams: string[], listen: string): string {
  return `upstream wharf {
    ${upstreams.map((u) => `server ${u};`).join('\n    ')}
    keepalive 64;
  }
  server {
    listen ${listen};
    # Pushes and uploads of any size: Wharf applies its own limits.
    client_max_body_size 0;
    location / {
      proxy_pass http://wharf;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # git's smart HTTP streams both ways: no buffering, long reads.
      proxy_request_buffering off;
      proxy_buffering off;
      proxy_read_timeout 600s;
    }
  }`;
}

export async function startNginx(upstreamPorts: number[], port: number): Promise<Nginx> {
  const binary = nginxBinary();
  if (!binary) throw new Error('nginx is not installed (Debian: apt-get install nginx)');
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'wharf-nginx-'));
  const conf = `# Written by reliability/nginx.ts
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
daemon off;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 2048; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  ${nginxSite(upstreamPorts.map((p) => `127.0.0.1:${p}`), `127.0.0.1:${port}`)}
}
`;
  fs.writeFileSync(path.join(prefix, 'nginx.conf'), conf);
  const child = startChild('nginx', ['-p', prefix, '-e', path.join(prefix, 'error.log'), '-c', path.join(prefix, 'nginx.conf')], {
    cwd: prefix, env: process.env, command: binary,
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${base}/healthz`, 20_000);
  return {
    base,
    child,
    async stop() {
      await child.stop(5_000);
      fs.rmSync(prefix, { recursive: true, force: true });
    },
  };
}
