// Git over SSH: Wharf's own SSH server (ssh2) with the host keys GET /meta publishes.
// Public-key authentication only (git-ssh.service says who a key is); a session runs
// one git service, through the same session as HTTP (git-http.session: permissions,
// protected branches, the push journal and its recording); `ssh git@host` alone gets
// upstream's greeting and exit status 1.
import ssh2 from 'ssh2';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { AppContext } from '../../context.ts';
import { DomainError } from '../../domain/errors.ts';
import { runPackService } from '../../git/pack-service.ts';
import { pushesRecordedBy } from '../../git/push-recordings.ts';
import { openGitSession } from '../git-http/git-http.session.ts';
import * as keys from '../keys/keys.service.ts';
import { hostPrivateKeys } from '../meta/meta.service.ts';
import * as repos from '../repos/repos.service.ts';
import { parseGitCommand } from './git-ssh.command.ts';
import { greeting, identifyKey, type KeyIdentity } from './git-ssh.service.ts';

/** As sshd's LoginGraceTime: a connection not authenticated by then is dropped. */
const LOGIN_GRACE_MS = 60_000;
/** The user name of every SSH address, as upstream's git@host. */
const SSH_USER = 'git';

export interface SshServer {
  /** The port it listens on (the OS's choice when asked for 0). */
  port: number;
  /** Stops listening, ends the git runs in progress (recording their pushes) and closes every connection. */
  close(): Promise<void>;
}

type ServerChannel = ssh2.ServerChannel;

/** A key's SHA256 fingerprint as ssh-keygen -l prints it: what logs name a key by, never the key. */
function fingerprintOf(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

function fail(channel: ServerChannel, message: string): void {
  channel.stderr.write(message.endsWith('\n') ? message : `${message}\n`);
  channel.exit(1);
  channel.end();
}

export async function startSshServer(ctx: AppContext, port: number, host: string): Promise<SshServer> {
  const connections = new Set<ssh2.Connection>();
  /** The git runs in progress: kill() ends one, `done` settles once git has exited and the channel is answered. */
  const runs = new Set<{ kill(): void; done: Promise<void> }>();
  let closing = false;

  /** Runs one command on an accepted channel, start to exit status. */
  async function execute(channel: ServerChannel, command: string, blob: Buffer, ip: string, gitProtocol: string | undefined): Promise<void> {
    // The client may go away at any point: git is then ended, and its push settled as interrupted.
    let interrupted = false;
    let stop = () => { interrupted = true; };
    channel.once('close', () => stop());
    const parsed = parseGitCommand(command);
    // Asked again: the key may be gone, or its user suspended, since the connection opened.
    const identity = await identifyKey(ctx, blob, ip);
    if (!identity) return fail(channel, 'ERROR: Permission denied (publickey).');
    if (!parsed) return fail(channel, `ERROR: Invalid command: ${JSON.stringify(command)}\n${greeting(identity)}`);
    const log = ctx.log.child({ fingerprint: identity.fingerprint, service: parsed.service, repository: `${parsed.owner}/${parsed.name}` });
    let session;
    try {
      session = await openGitSession(ctx, identity.actor, parsed.owner, parsed.name, parsed.service, { push: true });
    } catch (err) {
      if (err instanceof DomainError) {
        log.info({ reason: err.message }, 'ssh: git refused');
        return fail(channel, `ERROR: ${err.message}`);
      }
      throw err;
    }
    if (interrupted) {
      await session.settle({ interrupted });
      return;
    }
    log.info('ssh: git');
    const run = runPackService({
      service: parsed.service, repoDir: repos.gitDir(ctx, session.repo), gitProtocol, env: session.env,
      stdin: channel, stdout: channel, stderr: channel.stderr,
    });
    stop = () => { interrupted = true; run.kill(); };
    const done = (async () => {
      const code = await run.exited;
      if (interrupted) {
        // No one waits for an answer: settled here, its quarantine removed.
        await session.settle({ interrupted });
        log.info('ssh: git interrupted');
        channel.end();
        return;
      }
      // Acknowledged once git has exited, recorded after, as over HTTP: the recording is
      // tracked before the client hears the exit status, so the pusher's next requests and
      // git sessions on the repository wait for it (git/push-recordings.ts).
      session.settleInBackground();
      channel.exit(code < 0 ? 1 : code);
      channel.end();
    })();
    const entry = { kill: () => stop(), done };
    runs.add(entry);
    await done.finally(() => runs.delete(entry));
  }

  function onSession(accept: () => ssh2.Session, identity: KeyIdentity, blob: Buffer, ip: string): void {
    const session = accept();
    let gitProtocol: string | undefined;
    session.on('env', (ok, no, info) => {
      // GIT_PROTOCOL (protocol v2) is the one variable a client may set.
      if (info.key === 'GIT_PROTOCOL' && /^[A-Za-z0-9=:.]{1,64}$/.test(info.val)) {
        gitProtocol = info.val;
        ok?.();
      } else {
        no?.();
      }
    });
    session.on('pty', (_ok, no) => no?.());
    session.on('shell', (ok) => fail(ok(), greeting(identity)));
    session.on('exec', (ok, _no, info) => {
      const channel = ok();
      // Writes racing a client that went away fail here rather than as an uncaught error.
      channel.on('error', (err: Error) => ctx.log.debug({ err }, 'ssh: channel error'));
      channel.stderr.on('error', () => { /* as above */ });
      execute(channel, info.command, blob, ip, gitProtocol).catch((err: unknown) => {
        ctx.log.error({ err, fingerprint: identity.fingerprint }, 'ssh: git failed');
        fail(channel, 'ERROR: Internal error');
      });
    });
    session.on('subsystem', (_ok, no) => no());
    session.on('sftp', (_ok, no) => no());
  }

  const server = new ssh2.Server({ hostKeys: hostPrivateKeys(ctx), ident: 'Wharf' }, (client, info) => {
    if (closing) {
      client.end();
      return;
    }
    connections.add(client);
    // The handshake and git's negotiation are small writes answered by the client: with
    // Nagle's algorithm each waited for the client's delayed ACK (40 ms), several times a
    // connection (a greeting took ~100 ms, a clone 130 ms more than over HTTP).
    // (ssh2's server connection has setNoDelay; its published types give it to the client only.)
    (client as ssh2.Connection & { setNoDelay(noDelay: boolean): void }).setNoDelay(true);
    const grace = setTimeout(() => client.end(), LOGIN_GRACE_MS);
    grace.unref();
    let identity: KeyIdentity | null = null;
    let blob: Buffer | null = null;
    client.on('authentication', (auth) => {
      if (auth.method !== 'publickey' || auth.username !== SSH_USER) {
        auth.reject(['publickey']);
        return;
      }
      const key = ssh2.utils.parseKey(auth.key.data);
      void identifyKey(ctx, auth.key.data, info.ip).then((found) => {
        if (!found || key instanceof Error) {
          ctx.log.debug({ fingerprint: fingerprintOf(auth.key.data), ip: info.ip }, 'ssh: unknown key refused');
          return auth.reject(['publickey']);
        }
        // Without a signature the client only asks whether the key would do.
        if (!auth.signature) return auth.accept();
        if (!auth.blob || !key.verify(auth.blob, auth.signature, auth.hashAlgo)) return auth.reject(['publickey']);
        identity = found;
        blob = auth.key.data;
        ctx.log.info({ fingerprint: found.fingerprint, kind: found.actor.method, ip: info.ip }, 'ssh: authenticated');
        auth.accept();
        keys.recordKeyUse(ctx, found.key).catch((err: unknown) => ctx.log.warn({ err }, 'ssh: noting a key\'s use failed'));
      }, (err: unknown) => {
        ctx.log.error({ err }, 'ssh: looking up a key failed');
        auth.reject(['publickey']);
      });
    });
    client.on('ready', () => {
      clearTimeout(grace);
      client.on('session', (accept) => onSession(accept, identity!, blob!, info.ip));
    });
    client.on('error', (err) => ctx.log.debug({ err, ip: info.ip }, 'ssh: connection error'));
    client.on('close', () => {
      clearTimeout(grace);
      connections.delete(client);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err: Error) => ctx.log.error({ err }, 'ssh: server error'));
  const bound = (server.address() as AddressInfo).port;
  ctx.log.info({ port: bound }, 'ssh: listening for git');
  return {
    port: bound,
    async close() {
      closing = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const run of runs) run.kill();
      await Promise.all([...runs].map((r) => r.done.catch(() => undefined)));
      // Their pushes, acknowledged before their recording, are recorded before the close goes on.
      await pushesRecordedBy(ctx.bus);
      for (const client of connections) client.end();
      await stopped;
    },
  };
}
