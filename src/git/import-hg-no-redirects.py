# A Mercurial extension Wharf loads for imports (import-credentials.ts names it in the
# private hgrc): HTTP redirects are not followed. An import's address is checked before
# Mercurial runs (imports.guard.ts), and Mercurial follows a redirect from an allowed
# host to any other, loopback and private networks included; git is run with
# http.followRedirects=false and svn stops at a redirect, so Mercurial now stops too
# ("HTTP Error 302"), for `hg identify` and for git-remote-hg alike.
import urllib.request

from mercurial import url as hgurl


class refuseredirects(urllib.request.HTTPRedirectHandler):
    """Takes the place of urllib's redirect handler (a subclass replaces the default)."""

    def __init__(self, ui=None, passmgr=None):
        super().__init__()

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        # None: urllib then answers the 3xx as an HTTP error.
        return None


def uisetup(ui):
    if refuseredirects not in hgurl.handlerfuncs:
        hgurl.handlerfuncs.append(refuseredirects)
