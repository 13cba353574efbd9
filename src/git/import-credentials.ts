// How an import's tools get the source's credentials without them appearing in process
// arguments or logs: git and git svn ask import-askpass.sh, which answers from the
// environment; svn reads the password from stdin; Mercurial (and git-remote-hg, which
// runs Mercurial's code) reads an [auth] section of a private hgrc. Each tool also gets
// a private, empty HOME and configuration directory, so nothing of the machine's
// configuration (credential caches, extensions) takes part. The directory goes with
// cleanup(), at the end of every step.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SourceCredentials {
  username: string | null;
  password: string | null;
}

export interface CredentialScope {
  /** Environment for every tool of the step. */
  env: Record<string, string>;
  /** The private Subversion configuration directory. */
  svnConfigDir: string;
  /** What svn is to read from stdin for --password-from-stdin (null: no password). */
  svnPassword: string | null;
  username: string | null;
  cleanup(): void;
}

const ASKPASS = fileURLToPath(new URL('./import-askpass.sh', import.meta.url));
/** The Mercurial extension that stops Mercurial following redirects past the address check. */
const HG_NO_REDIRECTS = fileURLToPath(new URL('./import-hg-no-redirects.py', import.meta.url));
/** The Mercurial extension that connects to the address checked (WHARF_IMPORT_PIN), not to a fresh lookup's. */
const HG_PIN = fileURLToPath(new URL('./import-hg-pin.py', import.meta.url));

/** hgrc values are single lines; anything else would let a value add configuration. */
function hgValue(v: string): string {
  if (/[\r\n]/.test(v)) throw new Error('credentials may not span lines');
  return v;
}

export function credentialScope(dir: string, creds: SourceCredentials): CredentialScope {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const svnConfigDir = path.join(dir, 'svn');
  fs.mkdirSync(svnConfigDir, { mode: 0o700 });
  const hgrc = path.join(dir, 'hgrc');
  const auth = creds.username !== null || creds.password !== null
    ? ['[auth]', 'import.prefix = *',
      ...(creds.username !== null ? [`import.username = ${hgValue(creds.username)}`] : []),
      ...(creds.password !== null ? [`import.password = ${hgValue(creds.password)}`] : [])]
    : [];
  fs.writeFileSync(hgrc, ['[ui]', 'interactive = False', '[extensions]', `wharfnoredirects = ${HG_NO_REDIRECTS}`, `wharfpin = ${HG_PIN}`, ...auth, ''].join('\n'), { mode: 0o600 });
  const env: Record<string, string> = {
    HOME: dir,
    HGRCPATH: hgrc,
    HGPLAIN: '1',
    XDG_CONFIG_HOME: dir,
    // Never a credential helper of the machine: the askpass script is the only source.
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'credential.helper',
    GIT_CONFIG_VALUE_0: '',
  };
  if (creds.username !== null || creds.password !== null) {
    Object.assign(env, {
      GIT_ASKPASS: ASKPASS,
      WHARF_IMPORT_USERNAME: creds.username ?? '',
      WHARF_IMPORT_PASSWORD: creds.password ?? '',
    });
  }
  return {
    env, svnConfigDir, svnPassword: creds.password, username: creds.username,
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
