// Which redirect_uri an app may send users back to, by upstream's rule: the scheme,
// host and port of the registered callback URL, and its path or a path below it. A
// loopback callback (127.0.0.1, [::1], and localhost, which gh's app on enterprise
// servers is registered with) allows any port, as native apps (gh among them)
// listen on whatever port is free.

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

function parse(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** The redirect URI to use, or null when `requested` is not within `callback`. */
export function allowedRedirect(callback: string | null, requested: string | undefined): string | null {
  if (!callback) return null;
  if (requested === undefined || requested === '') return callback;
  const cb = parse(callback);
  const uri = parse(requested);
  if (!cb || !uri || requested.length > 2048) return null;
  if (uri.protocol !== cb.protocol || uri.username || uri.password || uri.hash) return null;
  if (uri.hostname.toLowerCase() !== cb.hostname.toLowerCase()) return null;
  if (uri.port !== cb.port && !LOOPBACK.has(cb.hostname)) return null;
  // Path segments only: /callback admits /callback and /callback/more, not /callbackevil.
  // URL has already resolved dot segments, so /callback/../admin cannot slip through.
  const base = cb.pathname.endsWith('/') ? cb.pathname : `${cb.pathname}/`;
  if (uri.pathname !== cb.pathname && !uri.pathname.startsWith(base)) return null;
  return uri.toString();
}
