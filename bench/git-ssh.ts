// Git over SSH for `npm run bench` (issue #24's aim: a clone over SSH within 1.2× of
// the same clone over HTTP). The client is OpenSSH as a user runs it: a fresh ed25519
// key registered for the bench user through POST /user/keys, and a known_hosts file
// written from GET /meta's ssh_keys, checked strictly, so the figure includes the real
// key exchange and host key check and nothing is accepted blindly.
import fs from 'node:fs';
import path from 'node:path';
import { apiCall, type Api } from './seed.ts';
import { run } from './git-backend.ts';

export interface SshRemote {
  /** ssh://git@127.0.0.1:PORT — repositories at `${base}/${owner}/${repo}.git`. */
  base: string;
  /** GIT_SSH_COMMAND for every git run against `base`. */
  env: NodeJS.ProcessEnv;
}

/** The key, known_hosts and GIT_SSH_COMMAND to reach Wharf's SSH server on `port` as `api`'s user. */
export async function prepareSsh(api: Api, work: string, port: number): Promise<SshRemote> {
  const dir = path.join(work, 'ssh');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = path.join(dir, 'id_ed25519');
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'wharf-bench', '-f', key]);
  await apiCall(api, 'POST', '/user/keys', { title: 'wharf-bench', key: fs.readFileSync(`${key}.pub`, 'utf8').trim() });

  const res = await fetch(`${api.base}/meta`, { headers: { 'user-agent': 'wharf-bench/1.0', accept: 'application/vnd.github+json' } });
  if (!res.ok) throw new Error(`GET /meta answered ${res.status}`);
  const hostKeys = ((await res.json()) as { ssh_keys?: unknown }).ssh_keys;
  if (!Array.isArray(hostKeys) || hostKeys.length === 0) throw new Error('GET /meta published no ssh_keys');
  const knownHosts = path.join(dir, 'known_hosts');
  fs.writeFileSync(knownHosts, hostKeys.map((k) => `[127.0.0.1]:${port} ${String(k)}\n`).join(''));

  const command = ['ssh', '-i', key, '-o', 'IdentitiesOnly=yes', '-o', `UserKnownHostsFile=${knownHosts}`,
    '-o', 'StrictHostKeyChecking=yes', '-o', 'BatchMode=yes'].join(' ');
  return { base: `ssh://git@127.0.0.1:${port}`, env: { GIT_SSH_COMMAND: command } };
}
