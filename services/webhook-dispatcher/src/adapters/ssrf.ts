// Target address policy for webhook deliveries (conventions §3): https and public addresses only,
// checked when an endpoint is registered (`checkTargetUrl`) and again for every new connection
// (`guardedLookup`), so a DNS answer that changes between the check and the connect (DNS
// rebinding) cannot steer a delivery into the private network.
import dns from 'node:dns';
import type { LookupAddress, LookupAllOptions, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { classifyAddress, isAllowed } from '../domain/target-policy.ts';
import type { AddressKind, TargetPolicy } from '../domain/target-policy.ts';

export type TargetCheck = { ok: true; url: URL } | { ok: false; reason: string };

export const TARGET_REFUSED = 'ERR_WEBHOOK_TARGET_REFUSED';

/** The error a guarded lookup fails with; `code` tells the sender to record a refusal. */
export class TargetRefusedError extends Error {
  readonly code = TARGET_REFUSED;
  readonly hostname: string;
  readonly address: string;
  readonly kind: AddressKind;

  constructor(hostname: string, address: string, kind: AddressKind) {
    super(`webhook target ${hostname} resolves to ${address}, a ${kind} address, which is refused`);
    this.name = 'TargetRefusedError';
    this.hostname = hostname;
    this.address = address;
    this.kind = kind;
  }
}

// ---------------------------------------------------------------------------------------------
// Registration-time check

const LOCALHOST_NAME = /(^|\.)localhost$/i;

/**
 * Host names of cloud instance-metadata services, refused always (even with `allowPrivate`): a
 * metadata server hands out credentials to whoever asks from inside, so no webhook may point at
 * one, whatever the name resolves to where it is checked. GCP: `metadata.google.internal`,
 * `metadata.goog` and the bare `metadata` that GCE's resolver answers; AWS: `instance-data` and
 * `instance-data.ec2.internal`; Equinix Metal: `metadata.packet.net` and
 * `metadata.platformequinix.com`; Tencent Cloud: `metadata.tencentyun.com`; Oracle Cloud:
 * `metadata.oraclecloud.com`; `metadata.azure.com`, which SSRF block lists carry for Azure (whose
 * documented service is the address 169.254.169.254, refused by address like the others').
 */
export const METADATA_HOSTNAMES: readonly string[] = [
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.packet.net',
  'metadata.platformequinix.com',
  'metadata.tencentyun.com',
  'metadata.oraclecloud.com',
  'metadata.azure.com',
];

/**
 * `.internal` is reserved for private use (ICANN, 2024) and is where clouds name their own
 * hosts and services (`*.ec2.internal`, `*.compute.internal`, `*.c.<project>.internal`): private,
 * so allowed only with `allowPrivate` (the local stack may use `host.docker.internal`).
 */
const INTERNAL_NAME = /(^|\.)internal$/i;

/** The host name as a resolver sees it: lower case, without the root's trailing dot. */
const normalizedName = (host: string) => host.toLowerCase().replace(/\.+$/, '');

/**
 * Why a host name (not an IP literal) is refused before any lookup, or undefined when the name
 * may be resolved and its addresses checked.
 */
export function refusedHostname(
  host: string,
  policy: TargetPolicy,
): { kind: AddressKind; reason: string } | undefined {
  const name = normalizedName(host);
  if (METADATA_HOSTNAMES.includes(name)) {
    return {
      kind: 'metadata',
      reason: `target host ${name} is a cloud metadata service, which is refused`,
    };
  }
  if (policy.allowPrivate) return undefined;
  if (LOCALHOST_NAME.test(name)) {
    return { kind: 'loopback', reason: `target host ${name} is loopback, which is refused` };
  }
  if (INTERNAL_NAME.test(name)) {
    return { kind: 'private', reason: `target host ${name} is a private name, which is refused` };
  }
  return undefined;
}

/**
 * Checks an endpoint URL before it is stored (and before every send, for URLs stored under an
 * older policy). Only https, unless `allowPrivate` is set: the local stack sets it so that plain
 * http receivers on loopback work; production never does, so production targets are always
 * https. An IP-literal host (in any spelling WHATWG URL parsing accepts, which normalizes the
 * legacy IPv4 forms to dotted decimal) is classified here; a name is resolved and checked at
 * connect time by `guardedLookup`, except `localhost` names, which are refused here already.
 */
export function checkTargetUrl(url: string, policy: TargetPolicy): TargetCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'not a valid absolute URL' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return { ok: false, reason: `scheme ${parsed.protocol.slice(0, -1)} is not supported` };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, reason: 'URL must not contain credentials' };
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === '') return { ok: false, reason: 'URL has no host' };
  if (isIP(host) !== 0) {
    const kind = classifyAddress(host);
    if (!isAllowed(kind, policy)) {
      return { ok: false, reason: `target address ${host} is ${kind}, which is refused` };
    }
  } else {
    const refused = refusedHostname(host, policy);
    if (refused) return { ok: false, reason: refused.reason };
  }
  if (parsed.protocol === 'http:' && !policy.allowPrivate) {
    return { ok: false, reason: 'URL must use https' };
  }
  return { ok: true, url: parsed };
}

// ---------------------------------------------------------------------------------------------
// Connect-time check

/** A resolver with the contract of `dns.lookup(hostname, { all: true }, callback)`. */
export type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const defaultResolver: Resolver = (hostname, options, callback) => {
  dns.lookup(hostname, options, callback);
};

/**
 * A `lookup` for `net.connect` / `http(s).request` / an `Agent`. It always asks the resolver
 * for every address, refuses the whole name with a `TargetRefusedError` (code
 * `ERR_WEBHOOK_TARGET_REFUSED`) when any of them is not allowed, and otherwise answers with
 * exactly the checked addresses, so the socket connects to an address that passed the check.
 * Both call shapes are served: `{ all: true }` (Node's autoSelectFamily, the default since
 * Node 20) gets the list; otherwise the first address and its family, as `dns.lookup` would.
 *
 * Node skips `lookup` for an IP-literal host, so an IP-literal URL must pass `checkTargetUrl`.
 */
export function guardedLookup(
  policy: TargetPolicy,
  resolve: Resolver = defaultResolver,
): LookupFunction {
  return (hostname, options, callback) => {
    const requested: LookupOptions =
      typeof options === 'number' ? { family: options } : (options ?? {});
    const { all: wantAll, ...rest } = requested;
    // By name first: a metadata host is refused whatever this resolver makes of it.
    const refused = isIP(hostname) === 0 ? refusedHostname(hostname, policy) : undefined;
    if (refused) {
      callback(new TargetRefusedError(hostname, hostname, refused.kind), wantAll ? [] : '');
      return;
    }
    resolve(hostname, { ...rest, all: true }, (err, addresses) => {
      if (err) {
        callback(err, wantAll ? [] : '');
        return;
      }
      const checked: LookupAddress[] = [];
      for (const entry of addresses) {
        const family = isIP(entry.address);
        const kind = family === 0 ? null : classifyAddress(entry.address);
        if (kind === null || !isAllowed(kind, policy)) {
          callback(
            new TargetRefusedError(hostname, entry.address, kind ?? 'reserved'),
            wantAll ? [] : '',
          );
          return;
        }
        checked.push({ address: entry.address, family });
      }
      const first = checked[0];
      if (first === undefined) {
        const none: NodeJS.ErrnoException = new Error(`no addresses found for ${hostname}`);
        none.code = 'ENOTFOUND';
        callback(none, wantAll ? [] : '');
        return;
      }
      if (wantAll) callback(null, checked);
      else callback(null, first.address, first.family);
    });
  };
}
