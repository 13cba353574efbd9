// The one URL builder: every *_url field is made here, absolute, from WHARF_BASE_URL.
export class Urls {
  /** host[:port] of the base URL (git:// addresses), and the host alone (SSH addresses). */
  readonly host: string;
  readonly hostname: string;

  constructor(readonly base: string) {
    this.host = new URL(base).host;
    this.hostname = this.host.replace(/:\d+$/, '');
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
