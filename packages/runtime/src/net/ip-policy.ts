import net from 'node:net';

/**
 * Which addresses an outbound fetch may reach. Addresses are compared as bytes, so every spelling of
 * one address (IPv4-mapped IPv6, NAT64, compressed or not) meets the same rules.
 */
type Cidr = { bytes: Uint8Array; bits: number; name: string };

function parseIPv4(ip: string): Uint8Array | null {
  if (net.isIPv4(ip) === false) return null;
  return Uint8Array.from(ip.split('.').map(Number));
}

export function parseIPv6(input: string): Uint8Array | null {
  let ip = input.replace(/^\[|\]$/g, '');
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone); // fe80::1%eth0: the zone does not change the address
  if (!net.isIPv6(ip)) return null;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (dotted) {
    // '::ffff:127.0.0.1' → '::ffff:7f00:1': the dotted tail is just the last two groups
    const v4 = parseIPv4(dotted[1]);
    if (!v4) return null;
    ip = ip.slice(0, -dotted[1].length) + `${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const [head, rest] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const h = head ? head.split(':').map((x) => parseInt(x, 16)) : [];
  const r = rest ? rest.split(':').map((x) => parseInt(x, 16)) : [];
  const groups = rest === undefined ? h : [...h, ...new Array(8 - h.length - r.length).fill(0), ...r];
  if (groups.length !== 8 || groups.some((g) => !(g >= 0 && g <= 0xffff))) return null;
  const out = new Uint8Array(16);
  groups.forEach((g, i) => { out[2 * i] = g >> 8; out[2 * i + 1] = g & 0xff; });
  return out;
}

/** Bytes of an IPv4 or IPv6 address, or null when `ip` is not an address. */
function parseIp(ip: string): Uint8Array | null {
  return parseIPv4(ip) ?? parseIPv6(ip);
}

function cidr(spec: string, name: string): Cidr {
  const [addr, bits] = spec.split('/');
  const bytes = parseIp(addr);
  if (!bytes) throw new Error(`bad CIDR ${spec}`);
  return { bytes, bits: Number(bits ?? bytes.length * 8), name };
}

function inCidr(ip: Uint8Array, c: Cidr): boolean {
  if (ip.length !== c.bytes.length) return false;
  for (let bit = 0; bit < c.bits; bit += 8) {
    const n = Math.min(8, c.bits - bit);
    const mask = (0xff << (8 - n)) & 0xff;
    if ((ip[bit / 8] & mask) !== (c.bytes[bit / 8] & mask)) return false;
  }
  return true;
}

const V4_FORBIDDEN = [
  cidr('0.0.0.0/8', 'this-network'), cidr('10.0.0.0/8', 'private'), cidr('100.64.0.0/10', 'cgnat'),
  cidr('127.0.0.0/8', 'loopback'), cidr('169.254.0.0/16', 'link-local'), cidr('172.16.0.0/12', 'private'),
  cidr('192.0.0.0/24', 'ietf-protocol'), cidr('192.0.2.0/24', 'documentation'), cidr('192.168.0.0/16', 'private'),
  cidr('198.18.0.0/15', 'benchmarking'), cidr('198.51.100.0/24', 'documentation'), cidr('203.0.113.0/24', 'documentation'),
  cidr('224.0.0.0/4', 'multicast'), cidr('240.0.0.0/4', 'reserved'),
];

const V6_FORBIDDEN = [
  cidr('::/128', 'unspecified'), cidr('::1/128', 'loopback'), cidr('fc00::/7', 'unique-local'),
  cidr('fe80::/10', 'link-local'), cidr('fec0::/10', 'site-local'), cidr('ff00::/8', 'multicast'),
  cidr('100::/64', 'discard'), cidr('2001:db8::/32', 'documentation'),
];

/** IPv6 ranges that carry an IPv4 address in their last 32 bits: judged by that IPv4 address. */
const V6_EMBEDDING_V4 = [
  cidr('::ffff:0:0/96', 'ipv4-mapped'), cidr('64:ff9b::/96', 'nat64'), cidr('64:ff9b:1::/48', 'nat64-local'),
  cidr('::/96', 'ipv4-compatible'),
];
const SIX_TO_FOUR = cidr('2002::/16', '6to4'); // the IPv4 address sits in bits 16–48

/** The name of the forbidden range `ip` falls in, or null when it is a public address. Non-IPs are forbidden. */
export function forbiddenRange(ip: string): string | null {
  const bytes = parseIp(ip);
  if (!bytes) return 'not-an-ip';
  return forbiddenRangeOf(bytes);
}

function forbiddenRangeOf(bytes: Uint8Array): string | null {
  if (bytes.length === 4) return V4_FORBIDDEN.find((c) => inCidr(bytes, c))?.name ?? null;
  const direct = V6_FORBIDDEN.find((c) => inCidr(bytes, c));
  if (direct) return direct.name;
  const embedding = V6_EMBEDDING_V4.find((c) => inCidr(bytes, c));
  if (embedding) {
    const inner = forbiddenRangeOf(bytes.slice(12));
    return inner ? `${embedding.name}:${inner}` : null;
  }
  if (inCidr(bytes, SIX_TO_FOUR)) {
    const inner = forbiddenRangeOf(bytes.slice(2, 6));
    return inner ? `6to4:${inner}` : null;
  }
  return null;
}

/**
 * An allow-list of host names (exact, case-insensitive), IP addresses and CIDR ranges
 * (`localhost`, `127.0.0.1`, `10.0.0.0/8`, `::1`). IPv4-mapped IPv6 addresses match their IPv4 entries.
 */
export class AllowList {
  private readonly hosts = new Set<string>();
  private readonly ranges: Cidr[] = [];

  constructor(entries: readonly string[] = []) {
    for (const raw of entries) {
      const e = raw.trim().toLowerCase().replace(/^\[|\]$/g, '');
      if (!e) continue;
      const [addr, bits] = e.split('/');
      const bytes = parseIp(addr);
      if (bytes) this.ranges.push({ bytes, bits: bits === undefined ? bytes.length * 8 : Number(bits), name: e });
      else this.hosts.add(e.replace(/\.$/, ''));
    }
  }

  hasHost(hostname: string): boolean {
    return this.hosts.has(hostname.toLowerCase().replace(/\.$/, ''));
  }

  hasAddress(ip: string): boolean {
    const bytes = parseIp(ip);
    if (!bytes) return false;
    const mapped = bytes.length === 16 && inCidr(bytes, V6_EMBEDDING_V4[0]) ? bytes.slice(12) : null;
    return this.ranges.some((c) => inCidr(bytes, c) || (mapped !== null && inCidr(mapped, c)));
  }
}
