// Target policy: address classification, the registration-time URL check and the connect-time
// lookup guard. Nothing here opens a connection; resolvers are fakes.
import { describe, expect, it } from '@jest/globals';
import type { LookupAddress, LookupAllOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { checkTargetUrl, guardedLookup, TARGET_REFUSED } from '../src/adapters/ssrf.ts';
import type { Resolver } from '../src/adapters/ssrf.ts';
import { classifyAddress, isAllowed } from '../src/domain/target-policy.ts';
import type { AddressKind } from '../src/domain/target-policy.ts';

const strict = { allowPrivate: false };
const local = { allowPrivate: true };

/** The host of a URL as WHATWG parsing normalizes it, brackets removed. */
const hostOf = (url: string): string => new URL(url).hostname.replace(/^\[|\]$/g, '');

describe('classifyAddress', () => {
  const cases: [string, AddressKind][] = [
    ['127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    ['100.128.0.1', 'public'],
    ['169.254.169.254', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a00:1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['fe80::1', 'link-local'],
    ['fd00::1', 'private'],
    ['fc00::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['::', 'unspecified'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['2606:4700::1111', 'public'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.51.100.1', 'reserved'],
    ['203.0.113.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['::7f00:1', 'reserved'],
    // NAT64 and 6to4 carry an IPv4 address, which decides.
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a00:5', 'private'],
    ['64:ff9b::808:808', 'public'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:a9fe:a9fe::', 'metadata'],
    ['2002:808:808::1', 'public'],
    ['100.100.100.200', 'metadata'],
  ];
  it.each(cases)('%s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it.each([
    ['http://127.1/', '127.0.0.1'],
    ['http://2130706433/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[::ffff:7f00:1]/', '::ffff:7f00:1'],
    ['http://[0:0:0:0:0:0:0:1]/', '::1'],
  ])('URL parsing turns the host of %s into %s', (url, host) => {
    expect(hostOf(url)).toBe(host);
  });

  it.each([
    ['http://127.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:7f00:1]/', 'loopback'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[fd00::1]/', 'private'],
    ['http://[::]/', 'unspecified'],
    ['http://[2606:4700::1111]/', 'public'],
  ])('the host of %s is %s', (url, kind) => {
    expect(classifyAddress(hostOf(url))).toBe(kind);
  });

  it('reads the legacy IPv4 spellings and brackets directly too', () => {
    expect(classifyAddress('2130706433')).toBe('loopback');
    expect(classifyAddress('0177.0.0.1')).toBe('loopback');
    expect(classifyAddress('0x7f000001')).toBe('loopback');
    expect(classifyAddress('127.1')).toBe('loopback');
    expect(classifyAddress('0xa9.0xfe.0xa9.0xfe')).toBe('metadata');
    expect(classifyAddress('[::1]')).toBe('loopback');
    expect(classifyAddress('fe80::1%eth0')).toBe('link-local');
  });

  it('throws for something that is not an address', () => {
    expect(() => classifyAddress('example.com')).toThrow(TypeError);
    expect(() => classifyAddress('')).toThrow(TypeError);
    expect(() => classifyAddress('1.2.3.4.5')).toThrow(TypeError);
  });
});

describe('isAllowed', () => {
  it.each<[AddressKind, boolean, boolean]>([
    ['public', true, true],
    ['private', false, true],
    ['loopback', false, true],
    ['link-local', false, false],
    ['metadata', false, false],
    ['unspecified', false, false],
    ['multicast', false, false],
    ['reserved', false, false],
  ])('%s: %s without allowPrivate, %s with it', (kind, strictly, locally) => {
    expect(isAllowed(kind, strict)).toBe(strictly);
    expect(isAllowed(kind, local)).toBe(locally);
  });
});

describe('checkTargetUrl', () => {
  const refused = (url: string, policy = strict): string => {
    const result = checkTargetUrl(url, policy);
    if (result.ok) throw new Error(`${url} was allowed`);
    return result.reason;
  };

  it('allows https to a public host or address', () => {
    const named = checkTargetUrl('https://hooks.example.com/handoff?x=1', strict);
    expect(named.ok && named.url.href).toBe('https://hooks.example.com/handoff?x=1');
    expect(checkTargetUrl('https://8.8.8.8/hook', strict).ok).toBe(true);
    expect(checkTargetUrl('https://[2606:4700::1111]:8443/hook', strict).ok).toBe(true);
  });

  it('refuses http without allowPrivate, and allows it with', () => {
    expect(refused('http://hooks.example.com/')).toMatch(/https/);
    expect(checkTargetUrl('http://hooks.example.com/', local).ok).toBe(true);
  });

  it('refuses credentials, other schemes and garbage', () => {
    expect(refused('https://user:pass@hooks.example.com/')).toMatch(/credentials/);
    expect(refused('https://user@hooks.example.com/')).toMatch(/credentials/);
    expect(refused('https://user@127.0.0.1/', local)).toMatch(/credentials/);
    expect(refused('ftp://hooks.example.com/')).toMatch(/scheme/);
    expect(refused('file:///etc/passwd', local)).toMatch(/scheme/);
    expect(refused('not a url')).toMatch(/valid/);
    expect(refused('https://1.2.3.4.5/')).toMatch(/valid/);
  });

  it.each([
    'https://127.0.0.1/',
    'https://127.1/',
    'https://2130706433/',
    'https://0177.0.0.1/',
    'https://0x7f.1/',
    'https://0x7f000001/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://10.0.0.1/',
    'https://172.16.0.1/',
    'https://192.168.1.1/',
    'https://100.64.0.1/',
    'https://[fd00::1]/',
    'https://localhost/',
    'https://LOCALHOST./',
    'https://api.localhost/',
  ])('refuses %s without allowPrivate, allows it with', (url) => {
    expect(refused(url)).toMatch(/loopback|private/);
    expect(checkTargetUrl(url, local).ok).toBe(true);
  });

  it.each([
    ['https://169.254.169.254/latest/meta-data/', /metadata/],
    ['http://169.254.169.254/', /metadata/],
    ['https://[::ffff:169.254.169.254]/', /metadata/],
    ['https://[fd00:ec2::254]/', /metadata/],
    ['https://169.254.1.1/', /link-local/],
    ['https://[fe80::1]/', /link-local/],
    ['https://0.0.0.0/', /unspecified/],
    ['https://0/', /unspecified/],
    ['https://[::]/', /unspecified/],
    ['https://224.0.0.1/', /multicast/],
    ['https://240.0.0.1/', /reserved/],
  ])('refuses %s always', (url, reason) => {
    expect(refused(url)).toMatch(reason);
    expect(refused(url, local)).toMatch(reason);
  });
});

describe('guardedLookup', () => {
  const records: Record<string, LookupAddress[]> = {
    'evil.example': [{ address: '10.0.0.5', family: 4 }],
    'mixed.example': [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ],
    'ok.example': [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ],
    'metadata.example': [{ address: '169.254.169.254', family: 4 }],
    'mapped.example': [{ address: '::ffff:127.0.0.1', family: 6 }],
    'local.example': [{ address: '127.0.0.1', family: 4 }],
    'empty.example': [],
  };
  const calls: { hostname: string; options: LookupAllOptions }[] = [];
  const fakeResolver: Resolver = (hostname, options, callback) => {
    calls.push({ hostname, options });
    const found = records[hostname];
    setImmediate(() => {
      if (found === undefined) {
        const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        error.code = 'ENOTFOUND';
        callback(error, []);
      } else callback(null, found);
    });
  };

  interface Answer {
    error: NodeJS.ErrnoException | null;
    address: string | LookupAddress[];
    family: number | undefined;
  }
  const lookUp = (lookup: LookupFunction, hostname: string, all: boolean): Promise<Answer> =>
    new Promise((resolve) => {
      lookup(hostname, all ? { all: true } : {}, (error, address, family) =>
        resolve({ error, address, family }),
      );
    });

  it.each([true, false])('refuses a name resolving to a private address (all: %s)', async (all) => {
    const answer = await lookUp(guardedLookup(strict, fakeResolver), 'evil.example', all);
    expect(answer.error?.code).toBe(TARGET_REFUSED);
    expect(answer.error?.message).toMatch(/10\.0\.0\.5.*private/);
  });

  it('refuses a name when any one of its addresses is not allowed', async () => {
    const answer = await lookUp(guardedLookup(strict, fakeResolver), 'mixed.example', true);
    expect(answer.error?.code).toBe(TARGET_REFUSED);
    expect(answer.error?.message).toMatch(/127\.0\.0\.1.*loopback/);
    const single = await lookUp(guardedLookup(strict, fakeResolver), 'mixed.example', false);
    expect(single.error?.code).toBe(TARGET_REFUSED);
  });

  it('answers with exactly the checked addresses of a public name', async () => {
    const lookup = guardedLookup(strict, fakeResolver);
    calls.length = 0;
    const all = await lookUp(lookup, 'ok.example', true);
    expect(all.error).toBeNull();
    expect(all.address).toEqual(records['ok.example']);
    const one = await lookUp(lookup, 'ok.example', false);
    expect(one).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    // The resolver is always asked for every address, whatever the caller asked for.
    expect(calls.map((call) => call.options.all)).toEqual([true, true]);
  });

  it('lets private and loopback names through with allowPrivate, never metadata', async () => {
    const lookup = guardedLookup(local, fakeResolver);
    expect((await lookUp(lookup, 'evil.example', true)).error).toBeNull();
    expect((await lookUp(lookup, 'mixed.example', true)).error).toBeNull();
    expect((await lookUp(lookup, 'local.example', false)).address).toBe('127.0.0.1');
    const metadata = await lookUp(lookup, 'metadata.example', true);
    expect(metadata.error?.code).toBe(TARGET_REFUSED);
    expect(metadata.error?.message).toMatch(/metadata/);
  });

  it('classifies IPv4-mapped answers by the IPv4 address', async () => {
    const answer = await lookUp(guardedLookup(strict, fakeResolver), 'mapped.example', true);
    expect(answer.error?.code).toBe(TARGET_REFUSED);
    expect(answer.error?.message).toMatch(/loopback/);
  });

  it('passes resolver errors on and treats an empty answer as not found', async () => {
    const lookup = guardedLookup(strict, fakeResolver);
    expect((await lookUp(lookup, 'nowhere.example', true)).error?.code).toBe('ENOTFOUND');
    expect((await lookUp(lookup, 'empty.example', false)).error?.code).toBe('ENOTFOUND');
  });

  it('guards the real resolver too (IP literals resolve to themselves)', async () => {
    const lookup = guardedLookup(strict);
    expect((await lookUp(lookup, '127.0.0.1', true)).error?.code).toBe(TARGET_REFUSED);
    expect((await lookUp(lookup, '::1', false)).error?.code).toBe(TARGET_REFUSED);
    expect((await lookUp(lookup, '169.254.169.254', true)).error?.code).toBe(TARGET_REFUSED);
    const allowed = await lookUp(guardedLookup(local), '127.0.0.1', false);
    expect(allowed).toEqual({ error: null, address: '127.0.0.1', family: 4 });
  });
});
