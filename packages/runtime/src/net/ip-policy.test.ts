import { AllowList, forbiddenRange, parseIPv6 } from './ip-policy.js';

describe('forbiddenRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'], ['127.255.255.254', 'loopback'], ['10.0.0.1', 'private'], ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'], ['192.168.0.1', 'private'], ['169.254.169.254', 'link-local'], ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'], ['0.0.0.0', 'this-network'], ['224.0.0.1', 'multicast'], ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'], ['::1', 'loopback'], ['::', 'unspecified'], ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'], ['fe80::1', 'link-local'], ['fe80::1%eth0', 'link-local'], ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'ipv4-mapped:loopback'], ['::ffff:7f00:1', 'ipv4-mapped:loopback'],
    ['::ffff:a9fe:a9fe', 'ipv4-mapped:link-local'], ['0:0:0:0:0:ffff:10.1.2.3', 'ipv4-mapped:private'],
    ['64:ff9b::a9fe:a9fe', 'nat64:link-local'], ['2002:c0a8:0101::1', '6to4:private'], ['::127.0.0.1', 'ipv4-compatible:loopback'],
  ])('%s is %s', (ip, range) => {
    expect(forbiddenRange(ip)).toBe(range);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '172.15.255.255', '100.128.0.1', '100.63.255.255', '169.255.0.1', '11.0.0.1',
    '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:0808:0808::1'])('%s is public', (ip) => {
    expect(forbiddenRange(ip)).toBeNull();
  });

  it('treats anything that is not an IP as forbidden', () => {
    expect(forbiddenRange('example.com')).toBe('not-an-ip');
  });
});

describe('parseIPv6', () => {
  it('expands every spelling to the same bytes', () => {
    const a = parseIPv6('::ffff:127.0.0.1');
    expect(Array.from(a!)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1]);
    expect(parseIPv6('0:0:0:0:0:ffff:7f00:0001')).toEqual(a);
    expect(parseIPv6('[::ffff:7f00:1]')).toEqual(a);
    expect(Array.from(parseIPv6('2001:db8::1')!)).toEqual([0x20, 1, 0xd, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('1.2.3.4')).toBeNull();
    expect(parseIPv6('not::an::ip')).toBeNull();
  });
});

describe('AllowList', () => {
  const list = new AllowList(['LocalHost', '127.0.0.1', '10.0.0.0/8', '[fd00::1]']);
  it('matches host names exactly, case-insensitively', () => {
    expect(list.hasHost('localhost')).toBe(true);
    expect(list.hasHost('localhost.')).toBe(true);
    expect(list.hasHost('evil-localhost')).toBe(false);
  });
  it('matches addresses, ranges and IPv4-mapped forms', () => {
    expect(list.hasAddress('127.0.0.1')).toBe(true);
    expect(list.hasAddress('127.0.0.2')).toBe(false);
    expect(list.hasAddress('10.9.8.7')).toBe(true);
    expect(list.hasAddress('::ffff:10.9.8.7')).toBe(true);
    expect(list.hasAddress('fd00::1')).toBe(true);
    expect(list.hasAddress('fd00::2')).toBe(false);
  });
});
