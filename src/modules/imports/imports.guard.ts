// Where an import may connect: exactly where webhook deliveries may (the hooks module's
// AddressGuard, with WHARF_WEBHOOK_ALLOWED_HOSTS as its allow-list), since a source URL
// is chosen by a repository admin just as a hook URL is. Checked when the import is
// requested and again before each step; the tools then connect to the address checked,
// so a DNS answer changing in between cannot redirect them: git over HTTP by curl's
// resolve list, Mercurial (and git-remote-hg) by an extension that answers the host's
// lookup with that address, Subversion's own protocol (svn://) by the address in the
// URL, Subversion over http(s) by a proxy of Wharf's own that connects only to that
// address (src/git/import-svn-proxy.ts).
import type { AppContext } from '../../context.ts';
import type { ImportTarget } from '../../git/import-sources.ts';
import { addressGuardOf } from '../hooks/hooks.address-guard.ts';

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'svn:': 3690 };

/** The URL a source import may use, with the address to connect to; a message when refused. */
export async function checkTarget(ctx: AppContext, raw: string): Promise<{ ok: true; target: ImportTarget } | { ok: false; message: string }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'vcs_url is not a valid URL' };
  }
  if (!(url.protocol in DEFAULT_PORTS)) return { ok: false, message: 'vcs_url must be an http, https or svn URL' };
  if (url.username || url.password) return { ok: false, message: 'vcs_url may not hold credentials: send vcs_username and vcs_password' };
  const r = await addressGuardOf(ctx.config).resolve(url);
  if (!r.ok) return { ok: false, message: r.message.replace('deliveries', 'imports') };
  const port = url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol]!;
  const address = r.family === 6 ? `[${r.address}]` : r.address;
  return { ok: true, target: { url: url.toString(), pin: `${url.hostname.replace(/^\[(.*)\]$/, '$1')}:${port}:${address}` } };
}
