// Address classification for the webhook target policy (conventions §3): what kind of address an
// IP is, and which kinds a policy lets through. adapters/ssrf.ts applies it to endpoint URLs and
// to every connection a delivery opens.
import { isIP } from 'node:net';

export type AddressKind =
  | 'public'
  | 'private'
  | 'loopback'
  | 'link-local'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

export interface TargetPolicy {
  /**
   * `WEBHOOK_ALLOW_PRIVATE_TARGETS`: lets loopback and private (RFC 1918, CGNAT, ULA) addresses
   * through, and plain `http`, so that receivers on a developer's machine or inside the local
   * stack work. Link-local, cloud-metadata, unspecified, multicast and reserved addresses stay
   * refused even then.
   */
  allowPrivate: boolean;
}

interface Cidr {
  bytes: number[];
  prefix: number;
}

interface V4Range extends Cidr {
  kind: AddressKind;
}

interface V6Range extends Cidr {
  kind: AddressKind | 'embedded-v4';
  /** For 'embedded-v4': byte offset of the embedded IPv4 address. */
  v4At?: number;
}

const v4 = (cidr: string, kind: AddressKind): V4Range => {
  const [address = '', prefix = '32'] = cidr.split('/');
  return { bytes: address.split('.').map(Number), prefix: Number(prefix), kind };
};

const v6 = (cidr: string, kind: V6Range['kind'], v4At?: number): V6Range => {
  const [address = '', prefix = '128'] = cidr.split('/');
  const bytes = parseIPv6(address);
  if (!bytes) throw new Error(`bad range ${cidr}`);
  return { bytes, prefix: Number(prefix), kind, ...(v4At === undefined ? {} : { v4At }) };
};

/** First match wins, so the narrower ranges come before the ranges that contain them. */
const IPV4_RANGES: readonly V4Range[] = [
  v4('0.0.0.0/8', 'unspecified'), // "this network" (RFC 1122)
  v4('10.0.0.0/8', 'private'), // RFC 1918
  v4('100.100.100.200/32', 'metadata'), // Alibaba Cloud metadata, inside CGNAT space
  v4('100.64.0.0/10', 'private'), // CGNAT (RFC 6598)
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.169.254/32', 'metadata'), // AWS, GCP, Azure, OCI, DigitalOcean… metadata
  v4('169.254.170.2/32', 'metadata'), // AWS ECS task metadata
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'), // RFC 1918
  v4('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  v4('192.0.2.0/24', 'reserved'), // TEST-NET-1
  v4('192.88.99.0/24', 'reserved'), // 6to4 relay anycast (deprecated)
  v4('192.168.0.0/16', 'private'), // RFC 1918
  v4('198.18.0.0/15', 'reserved'), // benchmarking
  v4('198.51.100.0/24', 'reserved'), // TEST-NET-2
  v4('203.0.113.0/24', 'reserved'), // TEST-NET-3
  v4('168.63.129.16/32', 'metadata'), // Azure WireServer: a public address that only Azure VMs reach
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'), // future use, and 255.255.255.255 broadcast
];

const IPV6_RANGES: readonly V6Range[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('::ffff:0:0/96', 'embedded-v4', 12), // IPv4-mapped
  v6('::ffff:0:0:0/96', 'embedded-v4', 12), // IPv4-translated (SIIT)
  v6('::/96', 'reserved'), // IPv4-compatible (deprecated; not routed to IPv4 by any stack)
  v6('64:ff9b::/96', 'embedded-v4', 12), // NAT64 well-known prefix
  // Local-use NAT64 (RFC 8215) may translate to anything, including the private network.
  v6('64:ff9b:1::/48', 'reserved'),
  v6('100::/64', 'reserved'), // discard-only
  v6('2001::/32', 'reserved'), // Teredo: the embedded client address is obfuscated
  v6('2001:2::/48', 'reserved'), // benchmarking
  v6('2001:10::/28', 'reserved'), // ORCHID
  v6('2001:20::/28', 'reserved'), // ORCHIDv2
  v6('2001:db8::/32', 'reserved'), // documentation
  v6('2002::/16', 'embedded-v4', 2), // 6to4
  v6('3fff::/20', 'reserved'), // documentation (RFC 9637)
  v6('fd00:ec2::254/128', 'metadata'), // AWS metadata over IPv6
  v6('fc00::/7', 'private'), // unique local
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'private'), // site-local (deprecated)
  v6('ff00::/8', 'multicast'),
];

/** Global unicast space; every other IPv6 address not listed above is unassigned. */
const IPV6_GLOBAL_UNICAST = v6('2000::/3', 'public');

function matches(address: readonly number[], range: Cidr): boolean {
  if (address.length !== range.bytes.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i += 1, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((address[i] ?? 0) & mask) !== ((range.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}

function parseIPv4(text: string): number[] | null {
  if (isIP(text) !== 4) return null;
  return text.split('.').map(Number);
}

/** Sixteen bytes of an IPv6 address (with or without a dotted IPv4 tail), or null. */
function parseIPv6(text: string): number[] | null {
  if (isIP(text) !== 6) return null;
  let rest = text;
  const zone = rest.indexOf('%');
  if (zone >= 0) rest = rest.slice(0, zone);
  let tail: number[] = [];
  const lastColon = rest.lastIndexOf(':');
  const last = rest.slice(lastColon + 1);
  if (last.includes('.')) {
    const quad = parseIPv4(last);
    if (!quad) return null;
    tail = quad;
    rest = `${rest.slice(0, lastColon + 1)}0:0`;
  }
  const [head = '', back] = rest.split('::');
  const groups = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const front = groups(head);
  const end = back === undefined ? [] : groups(back);
  const missing = 8 - front.length - end.length;
  const all = [...front, ...Array<string>(back === undefined ? 0 : missing).fill('0'), ...end];
  if (all.length !== 8) return null;
  const bytes = all.flatMap((group) => {
    const value = Number.parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/**
 * Reads an address the way a URL host or `inet_aton` would: canonical IPv4 and IPv6 literals,
 * `[…]` brackets, and the legacy IPv4 spellings (`2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`).
 */
function parseAddress(input: string): number[] | null {
  let text = input.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const direct = parseIPv4(text) ?? parseIPv6(text);
  if (direct) return direct;
  if (/^[0-9a-fA-FxX.]+$/.test(text)) {
    try {
      return parseIPv4(new URL(`http://${text}/`).hostname);
    } catch {
      return null;
    }
  }
  return null;
}

function classifyBytes(bytes: readonly number[]): AddressKind {
  if (bytes.length === 4) {
    return IPV4_RANGES.find((range) => matches(bytes, range))?.kind ?? 'public';
  }
  const range = IPV6_RANGES.find((candidate) => matches(bytes, candidate));
  if (range === undefined) return matches(bytes, IPV6_GLOBAL_UNICAST) ? 'public' : 'reserved';
  if (range.kind !== 'embedded-v4') return range.kind;
  const at = range.v4At ?? 12;
  return classifyBytes(bytes.slice(at, at + 4));
}

/**
 * What kind of address `ip` is. IPv4-mapped, SIIT, NAT64 (64:ff9b::/96) and 6to4 (2002::/16)
 * addresses are classified by the IPv4 address they carry. Throws a TypeError for input that is
 * not an IP address.
 */
export function classifyAddress(ip: string): AddressKind {
  const bytes = parseAddress(ip);
  if (!bytes) throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
  return classifyBytes(bytes);
}

/** Public always; private and loopback only when the policy allows them; the rest never. */
export function isAllowed(kind: AddressKind, policy: TargetPolicy): boolean {
  switch (kind) {
    case 'public':
      return true;
    case 'private':
    case 'loopback':
      return policy.allowPrivate;
    case 'link-local':
    case 'metadata':
    case 'unspecified':
    case 'multicast':
    case 'reserved':
      return false;
  }
}
