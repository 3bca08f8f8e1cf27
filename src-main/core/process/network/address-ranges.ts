/**
 * Where an IP address leads, for the proxy's judgement (allow-list.ts): the public internet, a
 * network that is not public (private, CGNAT, ULA, multicast, documentation, reserved: IANA's
 * special-purpose registries), or this computer and its link (loopback, unspecified, link-local,
 * cloud metadata services, and every address of this computer's own interfaces). An IPv6 address
 * that carries an IPv4 one (mapped, compatible, NAT64, 6to4) leads where the IPv4 one does, or
 * farther from the public internet. Addresses are compared as bytes, never as text, so no
 * spelling of one passes for another.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** Where an address leads: `public`, `private` (another network), or `local` (this computer or its link). */
export type AddressReach = { kind: 'public' } | { kind: 'private' | 'local'; why: string };

interface Range {
  bytes: number[];
  bits: number;
  kind: 'private' | 'local';
  why: string;
}

const v4 = (text: string, bits: number, kind: Range['kind'], why: string): Range => ({ bytes: text.split('.').map(Number), bits, kind, why });

/** IPv4 ranges that are not the public internet, most specific first (a metadata address inside link-local is named as such). */
const IPV4_RANGES: readonly Range[] = [
  v4('169.254.169.254', 32, 'local', 'a cloud metadata service'),
  v4('169.254.170.2', 32, 'local', 'a cloud metadata service'),
  v4('100.100.100.200', 32, 'local', 'a cloud metadata service'),
  v4('0.0.0.0', 8, 'local', 'this computer (unspecified, 0.0.0.0/8)'),
  v4('127.0.0.0', 8, 'local', 'this computer (loopback, 127.0.0.0/8)'),
  v4('169.254.0.0', 16, 'local', "this computer's link (link-local, 169.254.0.0/16)"),
  v4('10.0.0.0', 8, 'private', 'a private network (10.0.0.0/8)'),
  v4('172.16.0.0', 12, 'private', 'a private network (172.16.0.0/12)'),
  v4('192.168.0.0', 16, 'private', 'a private network (192.168.0.0/16)'),
  v4('100.64.0.0', 10, 'private', 'shared address space (CGNAT, 100.64.0.0/10)'),
  v4('192.0.0.0', 24, 'private', 'reserved for protocols (192.0.0.0/24)'),
  v4('192.0.2.0', 24, 'private', 'documentation (192.0.2.0/24)'),
  v4('198.51.100.0', 24, 'private', 'documentation (198.51.100.0/24)'),
  v4('203.0.113.0', 24, 'private', 'documentation (203.0.113.0/24)'),
  v4('198.18.0.0', 15, 'private', 'benchmarking (198.18.0.0/15)'),
  v4('192.88.99.0', 24, 'private', 'the retired 6to4 relay anycast (192.88.99.0/24)'),
  v4('224.0.0.0', 4, 'private', 'multicast (224.0.0.0/4)'),
  v4('240.0.0.0', 4, 'private', 'reserved (240.0.0.0/4, broadcast included)'),
];

/** An IPv6 prefix written as 16-bit words. */
const v6 = (words: number[], bits: number, kind: Range['kind'], why: string): Range => ({
  bytes: words.flatMap((word) => [word >> 8, word & 0xff]),
  bits,
  kind,
  why,
});

/** IPv6 ranges that are not the public internet (the ones carrying IPv4 are judged by what they carry, below). */
const IPV6_RANGES: readonly Range[] = [
  v6([0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254], 128, 'local', 'a cloud metadata service'),
  v6([0, 0, 0, 0, 0, 0, 0, 0], 128, 'local', 'this computer (unspecified, ::)'),
  v6([0, 0, 0, 0, 0, 0, 0, 1], 128, 'local', 'this computer (loopback, ::1)'),
  v6([0xfe80], 10, 'local', "this computer's link (link-local, fe80::/10)"),
  v6([0xfc00], 7, 'private', 'a private network (ULA, fc00::/7)'),
  v6([0xfec0], 10, 'private', 'a private network (site-local, fec0::/10)'),
  v6([0xff00], 8, 'private', 'multicast (ff00::/8)'),
  v6([0x0100, 0, 0, 0], 64, 'private', 'discard-only (100::/64)'),
  v6([0x2001, 0x0db8], 32, 'private', 'documentation (2001:db8::/32)'),
  v6([0x3fff, 0], 20, 'private', 'documentation (3fff::/20)'),
  v6([0x2001, 0], 23, 'private', 'reserved for protocols, Teredo included (2001::/23)'),
  v6([0x5f00], 16, 'private', 'reserved for segment routing (5f00::/16)'),
  v6([0x0064, 0xff9b, 0x0001], 48, 'private', 'local-use NAT64 (64:ff9b:1::/48)'),
];

function inRange(address: readonly number[], range: Range): boolean {
  const whole = Math.floor(range.bits / 8);
  for (let i = 0; i < whole; i++) if (address[i] !== (range.bytes[i] ?? 0)) return false;
  const rest = range.bits % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((address[whole] as number) & mask) === ((range.bytes[whole] ?? 0) & mask);
}

/** The 4 or 16 bytes of an address as Node writes one (dotted quad; IPv6 with `::` and an IPv4 tail), or null. */
export function addressBytes(text: string): number[] | null {
  const bare = text.replace(/^\[|\]$/g, '');
  if (isIPv4(bare)) return bare.split('.').map(Number);
  if (!isIPv6(bare) || bare.includes('%')) return null;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(bare)?.[1];
  const body = tail === undefined ? bare : `${bare.slice(0, -tail.length)}${tail === bare ? '' : '0:0'}`;
  const [head = '', after] = body.split('::');
  const words = (part: string): number[] => (part === '' ? [] : part.split(':').map((word) => parseInt(word, 16)));
  const front = words(head);
  const back = after === undefined ? [] : words(after);
  const all = [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  const bytes = all.flatMap((word) => [word >> 8, word & 0xff]);
  if (tail !== undefined) bytes.splice(12, 4, ...tail.split('.').map(Number));
  return bytes.length === 16 ? bytes : null;
}

const sameBytes = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** Whether two spellings are one address. */
export function sameAddress(a: string, b: string): boolean {
  const [x, y] = [addressBytes(a), addressBytes(b)];
  return x !== null && y !== null && sameBytes(x, y);
}

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64, 6to4), with what carries it; null when it carries none. */
function carried(bytes: readonly number[]): { v4: number[]; how: string } | null {
  const zeros = (from: number, to: number): boolean => bytes.slice(from, to).every((byte) => byte === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return { v4: bytes.slice(12), how: 'IPv4-mapped (::ffff:0:0/96)' };
  if (zeros(0, 12)) return { v4: bytes.slice(12), how: 'IPv4-compatible (::/96)' };
  if (inRange(bytes, v6([0x0064, 0xff9b, 0, 0, 0, 0], 96, 'private', ''))) return { v4: bytes.slice(12), how: 'NAT64 (64:ff9b::/96)' };
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return { v4: bytes.slice(2, 6), how: '6to4 (2002::/16)' };
  return null;
}

/** The farther from the public internet of two reaches (local, then private, then public). */
function farther(a: AddressReach, b: AddressReach): AddressReach {
  const rank = { public: 0, private: 1, local: 2 } as const;
  return rank[b.kind] > rank[a.kind] ? b : a;
}

function judgeBytes(bytes: readonly number[], own: readonly number[][]): AddressReach {
  const ranges = bytes.length === 4 ? IPV4_RANGES : IPV6_RANGES;
  const range = ranges.find((entry) => inRange(bytes, entry));
  // Named by its range where that says more (loopback), else as this computer's, whatever range it is in.
  if (range?.kind !== 'local' && own.some((mine) => sameBytes(mine, bytes))) return { kind: 'local', why: "this computer's own address" };
  let reach: AddressReach = range === undefined ? { kind: 'public' } : { kind: range.kind, why: range.why };
  if (bytes.length === 16) {
    const inner = carried(bytes);
    if (inner !== null) {
      const of = judgeBytes(inner.v4, own);
      const via: AddressReach = of.kind === 'public' ? of : { kind: of.kind, why: `${of.why}, ${inner.how}` };
      // A mapped address is that IPv4 address; the others reach it through a gateway, which a compatible one never has.
      reach = farther(reach, inner.how.startsWith('IPv4-compatible') ? farther(via, { kind: 'private', why: inner.how }) : via);
    } else if (range === undefined && (bytes[0] as number) >> 5 !== 0b001) {
      // Only 2000::/3 is handed out as global unicast.
      reach = { kind: 'private', why: 'reserved (outside 2000::/3)' };
    }
  }
  return reach;
}

/** Whether `address` is the loopback (127.0.0.0/8, ::1, or a mapped 127.0.0.0/8): what `localhost` names. */
export function isLoopback(address: string): boolean {
  const bytes = addressBytes(address);
  if (bytes === null) return false;
  const v4 = bytes.length === 4 ? bytes : carried(bytes)?.how.startsWith('IPv4-mapped') === true ? bytes.slice(12) : null;
  return v4 === null ? sameBytes(bytes, [...Array<number>(15).fill(0), 1]) : v4[0] === 127;
}

/**
 * Where `address` (an IP address as Node writes one, IPv6 with or without brackets) leads, given
 * this computer's own addresses (`own`, as os.networkInterfaces() lists them). Anything that is
 * not an address Node would connect to is never public.
 */
export function addressReach(address: string, own: readonly string[]): AddressReach {
  const bytes = addressBytes(address);
  if (bytes === null) return { kind: 'local', why: 'not an address Skilltray can place (a scoped or malformed one)' };
  const mine = own.map(addressBytes).filter((entry): entry is number[] => entry !== null);
  return judgeBytes(bytes, mine);
}
