/**
 * `network: true` means the public internet (#38): no address that is private, shared (CGNAT),
 * unique-local, link-local, loopback, multicast, reserved or this computer's own passes for a
 * public one, in any spelling a client may write (decimal, octal, hex, short forms, IPv4-mapped,
 * compatible, NAT64, 6to4, compressed or not) or a resolver may answer. Known cases first, then
 * properties over generated addresses and spellings; public addresses still pass, so the
 * properties can fail.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressBytes, addressReach } from '../../../src-main/core/process/network/address-ranges.js';
import { judge } from '../../../src-main/core/process/network/allow-list.js';
import { canonicalHost } from '../../../src-main/core/skills/network-hosts.js';

const noLookup = async (): Promise<string> => Promise.reject(new Error('a literal address is never looked up'));
const none = (): string[] => [];

/** IPv4 ranges that are not the public internet, as [first address, prefix length]. */
const V4_NOT_PUBLIC: readonly [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

/** IPv6 ranges that are not the public internet, as [first address's 8 words, prefix length]. */
const V6_NOT_PUBLIC: readonly [number[], number][] = [
  [[0, 0, 0, 0, 0, 0, 0, 0], 128],
  [[0, 0, 0, 0, 0, 0, 0, 1], 128],
  [[0xfc00, 0, 0, 0, 0, 0, 0, 0], 7],
  [[0xfe80, 0, 0, 0, 0, 0, 0, 0], 10],
  [[0xfec0, 0, 0, 0, 0, 0, 0, 0], 10],
  [[0xff00, 0, 0, 0, 0, 0, 0, 0], 8],
  [[0x2001, 0x0db8, 0, 0, 0, 0, 0, 0], 32],
  [[0x2001, 0, 0, 0, 0, 0, 0, 0], 23],
  [[0x0064, 0xff9b, 0x0001, 0, 0, 0, 0, 0], 48],
  [[0x0100, 0, 0, 0, 0, 0, 0, 0], 64],
  [[0x4000, 0, 0, 0, 0, 0, 0, 0], 2],
];

const toInt = (v4: string): number => v4.split('.').reduce((n, part) => n * 256 + Number(part), 0);
const fromInt = (n: number): number[] => [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

/** An address inside one of the IPv4 ranges, as 4 bytes. */
const v4NotPublic = fc
  .tuple(fc.constantFrom(...V4_NOT_PUBLIC), fc.integer({ min: 0, max: 2 ** 32 - 1 }))
  .map(([[first, bits], noise]) => fromInt((toInt(first) + (bits === 32 ? 0 : noise % 2 ** (32 - bits))) >>> 0));

/** An address inside one of the IPv6 ranges, as 8 words. */
const v6NotPublic = fc
  .tuple(fc.constantFrom(...V6_NOT_PUBLIC), fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }))
  .map(([[first, bits], noise]) =>
    first.map((word, i) => {
      const fixed = Math.max(0, Math.min(16, bits - 16 * i));
      const mask = fixed === 0 ? 0 : (0xffff << (16 - fixed)) & 0xffff;
      return (word & mask) | ((noise[i] as number) & ~mask & 0xffff);
    }),
  );

const hex = (n: number): string => n.toString(16);
const words = (bytes: number[]): string =>
  `${hex(((bytes[0] as number) << 8) | (bytes[1] as number))}:${hex(((bytes[2] as number) << 8) | (bytes[3] as number))}`;

/** The ways a client may write an IPv4 address in a URL or a CONNECT line: dotted, one number, hex, octal, short, and IPv6 forms carrying it. */
function v4Spellings(b: number[]): string[] {
  const [a, c, d, e] = b as [number, number, number, number];
  const n = toInt(b.join('.'));
  return [
    `${a}.${c}.${d}.${e}`,
    String(n),
    `0x${hex(n)}`,
    `0${n.toString(8)}`,
    `0x${hex(a)}.0x${hex(c)}.0x${hex(d)}.0x${hex(e)}`,
    `0${a.toString(8)}.0${c.toString(8)}.0${d.toString(8)}.0${e.toString(8)}`,
    `${a}.${(c << 16) | (d << 8) | e}`,
    `${a}.${c}.${(d << 8) | e}`,
    `${a}.${c}.${d}.${e}.`,
    `[::ffff:${a}.${c}.${d}.${e}]`,
    `[::ffff:${words(b)}]`,
    `[0:0:0:0:0:FFFF:${words(b)}]`,
    `[64:ff9b::${a}.${c}.${d}.${e}]`,
    `[64:ff9b::${words(b)}]`,
    `[2002:${words(b)}::1]`,
    `[::${a}.${c}.${d}.${e}]`,
  ];
}

/** The ways to write an IPv6 address: compressed, full, leading zeros, upper case. */
function v6Spellings(w: number[]): string[] {
  const full = w.map(hex).join(':');
  const padded = w.map((word) => hex(word).padStart(4, '0')).join(':');
  return [`[${full}]`, `[${padded}]`, `[${padded.toUpperCase()}]`, `[${full.replace(/(^|:)0(:0)+(:|$)/, '::')}]`];
}

describe('where an address leads', () => {
  it('names the known places', () => {
    expect(addressReach('8.8.8.8', [])).toEqual({ kind: 'public' });
    expect(addressReach('2606:4700:4700::1111', [])).toEqual({ kind: 'public' });
    expect(addressReach('10.1.2.3', [])).toMatchObject({ kind: 'private', why: 'a private network (10.0.0.0/8)' });
    expect(addressReach('100.64.0.1', [])).toMatchObject({ kind: 'private', why: 'shared address space (CGNAT, 100.64.0.0/10)' });
    expect(addressReach('fd12::1', [])).toMatchObject({ kind: 'private' });
    expect(addressReach('255.255.255.255', [])).toMatchObject({ kind: 'private' });
    expect(addressReach('127.0.0.1', [])).toMatchObject({ kind: 'local' });
    expect(addressReach('169.254.169.254', [])).toMatchObject({ kind: 'local', why: 'a cloud metadata service' });
    expect(addressReach('fd00:ec2::254', [])).toMatchObject({ kind: 'local', why: 'a cloud metadata service' });
    expect(addressReach('100.100.100.200', [])).toMatchObject({ kind: 'local', why: 'a cloud metadata service' });
    expect(addressReach('::ffff:10.0.0.1', [])).toMatchObject({ kind: 'private', why: 'a private network (10.0.0.0/8), IPv4-mapped (::ffff:0:0/96)' });
    expect(addressReach('64:ff9b::7f00:1', [])).toMatchObject({ kind: 'local' });
    expect(addressReach('64:ff9b::808:808', [])).toEqual({ kind: 'public' });
    expect(addressReach('2002:c0a8:101::1', [])).toMatchObject({ kind: 'private' });
    expect(addressReach('fe80::1%eth0', [])).toMatchObject({ kind: 'local' });
    expect(addressReach('not an address', [])).toMatchObject({ kind: 'local' });
  });

  it("counts every address of this computer's own interfaces as its own, in every form", () => {
    const own = ['127.0.0.1', '::1', '1.2.3.4', '2a01:4f8::7'];
    expect(addressReach('1.2.3.4', own)).toMatchObject({ kind: 'local', why: "this computer's own address" });
    expect(addressReach('::ffff:1.2.3.4', own)).toMatchObject({ kind: 'local' });
    expect(addressReach('2a01:04f8:0000::0007', own)).toMatchObject({ kind: 'local' });
    expect(addressReach('1.2.3.5', own)).toEqual({ kind: 'public' });
  });

  it('reads every IPv6 spelling as the same bytes', () => {
    expect(addressBytes('::ffff:127.0.0.1')).toEqual(addressBytes('0:0:0:0:0:ffff:7f00:1'));
    expect(addressBytes('[::1]')).toEqual([...Array<number>(15).fill(0), 1]);
    expect(addressBytes('1.2.3')).toBeNull();
  });

  it('no spelling of an IPv4 address off the public internet is judged public by * (network: true)', async () => {
    await fc.assert(
      fc.asyncProperty(v4NotPublic, async (bytes) => {
        for (const spelling of v4Spellings(bytes)) {
          expect(canonicalHost(spelling), spelling).not.toBeNull();
          expect((await judge(['*'], spelling, 443, noLookup, none)).kind, spelling).toBe('deny');
          // A resolver's answer in any form Node accepts is judged the same.
          const answer = canonicalHost(spelling)?.replace(/^\[|\]$/g, '') as string;
          expect((await judge(['*'], 'rebind.example', 443, async () => answer, none)).kind, answer).toBe('deny');
        }
      }),
    );
  });

  it('no spelling of an IPv6 address off the public internet is judged public by *', async () => {
    await fc.assert(
      fc.asyncProperty(v6NotPublic, async (w) => {
        for (const spelling of v6Spellings(w)) {
          expect((await judge(['*'], spelling, 443, noLookup, none)).kind, spelling).toBe('deny');
          expect((await judge(['*'], 'rebind.example', 443, async () => spelling.slice(1, -1), none)).kind, spelling).toBe('deny');
        }
      }),
    );
  });

  it("no address of this computer's own is reached by * or a listed name, whatever range it is in", async () => {
    await fc.assert(
      fc.asyncProperty(fc.ipV4(), fc.ipV6(), async (v4, v6) => {
        const own = (): string[] => [v4, v6];
        for (const address of [v4, v6, `::ffff:${v4}`]) {
          expect((await judge(['*'], 'name.example', 443, async () => address, own)).kind, address).toBe('deny');
          expect((await judge(['name.example'], 'name.example', 443, async () => address, own)).kind, address).toBe('deny');
        }
      }),
    );
  });

  it('public addresses pass *, in their spellings too', async () => {
    for (const spelling of [...v4Spellings([8, 8, 8, 8]).slice(0, 9), '[2606:4700:4700::1111]', '[64:ff9b::8.8.8.8]', '[::ffff:8.8.8.8]']) {
      expect((await judge(['*'], spelling, 443, noLookup, none)).kind, spelling).toBe('allow');
    }
  });

  it('refuses a host name with a NUL or any byte a resolver might cut or read otherwise, before looking it up', async () => {
    const asked: string[] = [];
    const lookup = async (host: string): Promise<string> => {
      asked.push(host);
      return '93.184.215.14';
    };
    for (const host of ['localhost\0.example.org', 'evil.example.org\0', 'a b.example.org', 'a%00.example.org', 'ex\nample.org', 'xn--é.example.org']) {
      expect(await judge(['*.example.org', '*'], host, 443, lookup, none), JSON.stringify(host)).toMatchObject({
        kind: 'deny',
        why: 'not a host name or address and port',
      });
    }
    expect(asked).toEqual([]);
  });
});
