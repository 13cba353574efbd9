# A Mercurial extension Wharf loads for imports (import-credentials.ts names it in the
# private hgrc): connections go to the address the import's check judged, not to what
# the host name resolves to when Mercurial connects (DNS rebinding). WHARF_IMPORT_PIN
# holds "host:port:address" (curl's resolve syntax, an IPv6 address in brackets), as
# git is pinned with http.curloptResolve; a lookup of that host and port answers the
# address, a lookup of any other host is refused (redirects are not followed either,
# import-hg-no-redirects.py). Without WHARF_IMPORT_PIN nothing changes.
import os
import socket

_original_getaddrinfo = socket.getaddrinfo


def _pin():
    raw = os.environ.get('WHARF_IMPORT_PIN', '')
    # The address is the last part ("[v6]" or v4); the host may be an IPv6 literal.
    if raw.endswith(']'):
        rest, _, address = raw[:-1].rpartition(':[')
    else:
        rest, _, address = raw.rpartition(':')
    host, _, port = rest.rpartition(':')
    if not (host and port.isdigit() and address):
        return None
    return host.lower().rstrip('.').strip('[]'), int(port), address


def _port_of(port):
    if port in (None, b'', ''):
        return None
    try:
        return int(port)
    except (TypeError, ValueError):
        return socket.getservbyname(port.decode() if isinstance(port, bytes) else port)


def _pinned_getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
    pin = _pin()
    if pin is None:
        return _original_getaddrinfo(host, port, family, type, proto, flags)
    name = host.decode() if isinstance(host, bytes) else str(host or '')
    wanted = _port_of(port)
    if name.lower().rstrip('.').strip('[]') != pin[0] or (wanted is not None and wanted != pin[1]):
        raise socket.gaierror(socket.EAI_NONAME, 'refused: only the address the import checked may be reached')
    return _original_getaddrinfo(pin[2], port, family, type, proto, flags | socket.AI_NUMERICHOST)


def uisetup(ui):
    socket.getaddrinfo = _pinned_getaddrinfo
