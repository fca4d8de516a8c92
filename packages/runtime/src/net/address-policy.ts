import net from 'node:net';

/**
 * Which addresses a server-side fetch may reach. Refused by default: loopback, private, CGNAT,
 * link-local (cloud metadata at 169.254.169.254), unspecified, multicast/reserved, and the IPv6
 * equivalents, including IPv4-mapped forms.
 */
const V4_BLOCKS: [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
];

const v4ToInt = (ip: string) => ip.split('.').reduce((a, o) => (a << 8) + Number(o), 0) >>> 0;

function v4Blocked(ip: string): boolean {
  const n = v4ToInt(ip);
  return V4_BLOCKS.some(([base, bits]) => ((n ^ v4ToInt(base)) >>> (32 - bits)) === 0);
}

export function isForbiddenAddress(ip: string): boolean {
  if (net.isIPv4(ip)) return v4Blocked(ip);
  const lower = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return v4Blocked(mapped[1]);
  if (lower === '::' || lower === '::1') return true;
  return /^(fc|fd|fe8|fe9|fea|feb|ff)/.test(lower.replace(/^0+/, ''));
}
