// The one URL builder: every *_url field is made here, absolute, from WHARF_BASE_URL.
export class Urls {
  /** host[:port] of the base URL (git:// addresses), and the host alone (SSH addresses). */
  readonly host: string;
  readonly hostname: string;

  /**
   * The port git over SSH is served on (WHARF_SSH_PORT; 0 when off). Set again by the
   * server once it listens, when the OS chose the port (tests).
   */
  sshPort: number;

  constructor(readonly base: string, sshPort = 0) {
    this.host = new URL(base).host;
    this.hostname = this.host.replace(/:\d+$/, '');
    this.sshPort = sshPort;
  }

  /**
   * A repository's SSH remote: upstream's scp-like `git@host:owner/repo.git` on port 22
   * (and when SSH is off, where no port says otherwise), else the URL form, which alone
   * can carry a port.
   */
  sshRemote(owner: string, repo: string): string {
    if (this.sshPort === 0 || this.sshPort === 22) return `git@${this.hostname}:${owner}/${repo}.git`;
    return `ssh://git@${this.hostname}:${this.sshPort}/${owner}/${repo}.git`;
  }

  /** REST resource address: api('users', login) → {base}/users/{login}. */
  api(...segments: (string | number)[]): string {
    return `${this.base}/${segments.map((s) => encodeURIComponent(String(s))).join('/')}`;
  }

  /** Web page address. */
  html(...segments: (string | number)[]): string {
    return this.api(...segments);
  }

  /** Raw path (already encoded), for templates such as '{/other_user}'. */
  raw(path: string): string {
    return `${this.base}${path.startsWith('/') ? '' : '/'}${path}`;
  }

  avatar(userId: number): string {
    return `${this.base}/avatars/u/${userId}?v=4`;
  }
}
