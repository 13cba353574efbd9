// Where a webhook may be delivered. A hook URL is chosen by a repository admin, so
// without a check deliveries could reach the machine Wharf runs on or its private
// network. The host is resolved here, every address is checked, and the request then
// connects to the address checked (see hooks.sender.ts), so a DNS answer that changes
// between check and connect cannot slip past.
//
// Refused: anything but ordinary unicast — loopback, private (RFC 1918), link-local,
// unique-local, unspecified, carrier-grade NAT, multicast, broadcast, reserved and
// documentation ranges, and IPv6 forms that wrap an IPv4 address (mapped, 6to4,
// NAT64, Teredo, and the deprecated IPv4-compatible ::a.b.c.d, which ipaddr.js calls
// unicast when written in hex: ::7f00:1) — unless WHARF_WEBHOOK_ALLOWED_HOSTS names the host, the address or
// a range holding it.
//
// The same guard judges a URL when a hook is saved (literal addresses only: a name is
// judged when a delivery resolves it, since its answer can change) and source imports.
//
// Names resolve through the system resolver (getaddrinfo), or through the DNS servers
// WHARF_WEBHOOK_DNS_SERVERS names (A and AAAA queries, no hosts file): either way once
// per attempt, the connection then made to the address judged.
import { lookup, Resolver } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** ::/96, the deprecated IPv4-compatible addresses (:: and ::1 have ranges of their own). */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

export type Resolution =
  | { ok: true; address: string; family: 4 | 6 }
  /** The host resolves only to addresses deliveries may not reach: final, not retried. */
  | { ok: false; refused: true; message: string }
  /** The host does not resolve (now): like a failed connection, retried. */
  | { ok: false; refused: false; message: string };

/** A host's addresses, as lookup(host, { all: true }) gives them. */
export type HostLookup = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: HostLookup = (host) => lookup(host, { all: true, verbatim: true });

/** Asks these DNS servers ("address" or "address:port") for A and AAAA records. */
export function serverLookup(servers: readonly string[]): HostLookup {
  const resolver = new Resolver();
  resolver.setServers([...servers]);
  return async (host) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    const found = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (found.length === 0) throw v4.status === 'rejected' ? v4.reason : Object.assign(new Error(`no address for ${host}`), { code: 'ENOTFOUND' });
    return found;
  };
}

export class AddressGuard {
  private readonly hosts = new Set<string>();
  private readonly ranges: [Address, number][] = [];
  private readonly lookupHost: HostLookup;

  /**
   * `allowed`: host names, addresses or CIDR ranges (WHARF_WEBHOOK_ALLOWED_HOSTS);
   * `dnsServers`: where names are looked up (WHARF_WEBHOOK_DNS_SERVERS; none: the system resolver).
   */
  constructor(allowed: readonly string[], dnsServers: readonly string[] = []) {
    this.lookupHost = dnsServers.length > 0 ? serverLookup(dnsServers) : systemLookup;
    for (const raw of allowed) {
      const entry = raw.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
      if (!entry) continue;
      if (ipaddr.isValidCIDR(entry)) {
        const [addr, bits] = ipaddr.parseCIDR(entry);
        this.ranges.push([normalize(addr), addr.kind() === 'ipv6' && normalize(addr).kind() === 'ipv4' ? Math.max(0, bits - 96) : bits]);
      } else if (ipaddr.isValid(entry)) {
        const addr = normalize(ipaddr.parse(entry));
        this.ranges.push([addr, addr.kind() === 'ipv4' ? 32 : 128]);
      } else {
        this.hosts.add(entry.replace(/\.$/, ''));
      }
    }
  }

  /** Whether a delivery may connect to `address` (reached through `host`). */
  permits(host: string, address: string): boolean {
    if (this.hosts.has(host.toLowerCase().replace(/\.$/, ''))) return true;
    if (!ipaddr.isValid(address)) return false;
    const addr = normalize(ipaddr.parse(address));
    if (this.ranges.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits))) return true;
    if (addr.kind() === 'ipv6' && addr.match(IPV4_COMPATIBLE)) return false;
    return addr.range() === 'unicast';
  }

  /**
   * Why a URL whose host is an address literal may not be saved (null: it may, or its
   * host is a name, judged when resolved). The WHATWG parser has already turned
   * decimal, hex and octal IPv4 spellings into dotted form.
   */
  refusesLiteral(url: URL): string | null {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!ipaddr.isValid(host) || this.permits(host, host)) return null;
    return `isn't reachable over the public Internet (${host})`;
  }

  /** The address a delivery to `url` is to connect to, or why there is none. */
  async resolve(url: URL): Promise<Resolution> {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    let candidates: { address: string; family: number }[];
    if (ipaddr.isValid(host)) {
      candidates = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv4' ? 4 : 6 }];
    } else {
      try {
        candidates = await this.lookupHost(host);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? 'error';
        return { ok: false, refused: false, message: `failed to resolve host (${code})` };
      }
    }
    const usable = candidates.find((c) => this.permits(host, c.address));
    if (!usable) {
      const shown = candidates.map((c) => c.address).join(', ');
      return { ok: false, refused: true, message: `refused: ${host} resolves to ${shown}, which deliveries may not reach` };
    }
    return { ok: true, address: usable.address, family: usable.family === 6 ? 6 : 4 };
  }
}

/** IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry. */
function normalize(addr: Address): Address {
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr;
}

const shared = new WeakMap<object, AddressGuard>();

/** One guard per configuration (its allow-list and DNS servers), for the services that judge URLs. */
export function addressGuardOf(config: { webhookAllowedHosts: string[]; webhookDnsServers: string[] }): AddressGuard {
  let g = shared.get(config);
  if (!g) {
    g = new AddressGuard(config.webhookAllowedHosts, config.webhookDnsServers);
    shared.set(config, g);
  }
  return g;
}
