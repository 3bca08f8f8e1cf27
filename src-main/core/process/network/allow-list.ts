/**
 * What a run's proxy lets through. A host must match the skill's list (`*` for any) before
 * anything is looked up, so a name the list refuses never reaches a DNS server (no exfiltration by
 * lookup). An allowed name is resolved once, here, and the connection goes to that very address:
 * this computer's own addresses (loopback, unspecified, link-local, with their IPv4-mapped forms)
 * are reached only through a pattern that names them (`localhost`, `127.0.0.1`, `[::1]`, …), never
 * through `*` or a name that resolves there (DNS rebinding).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { allowingPattern, canonicalHost, isAddress, parseHostPattern } from '../../skills/network-hosts.js';

/** Resolves a name to one address, as the OS would for a connection. */
export type Lookup = (host: string) => Promise<string>;

/** Where the proxy may connect; why the allow-list refuses it; or why it cannot be reached (a name that does not resolve). */
export type Verdict =
  { kind: 'allow'; host: string; address: string } | { kind: 'deny'; host: string; why: string } | { kind: 'unreachable'; host: string; why: string };

const LOCAL = new BlockList();
LOCAL.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('0.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LOCAL.addAddress('::1', 'ipv6');
LOCAL.addAddress('::', 'ipv6');
LOCAL.addSubnet('fe80::', 10, 'ipv6');

/** Whether an address is this computer's own or its link's (loopback, unspecified, link-local), mapped IPv4 included. */
export function isLocalAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
  if (mapped !== undefined) return LOCAL.check(mapped, 'ipv4');
  const family = isIP(bare);
  return family !== 0 && LOCAL.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether a pattern names this computer itself: only such a pattern lets a connection reach a local address. */
function namesLocal(pattern: string): boolean {
  const parsed = parseHostPattern(pattern);
  if (typeof parsed === 'string' || parsed.wildcard) return false;
  return parsed.host === 'localhost' || (isAddress(parsed.host) && isLocalAddress(parsed.host));
}

const systemLookup: Lookup = async (host) => (await dnsLookup(host)).address;

/** Decides a connection to `text`:`port` for a run allowed `hosts`, resolving an allowed name with `lookup`. */
export async function judge(hosts: readonly string[], text: string, port: number, lookup: Lookup = systemLookup): Promise<Verdict> {
  const host = canonicalHost(text);
  if (host === null || !Number.isInteger(port) || port < 1 || port > 65535)
    return { kind: 'deny', host: text.slice(0, 255), why: 'not a host name or address and port' };
  const pattern = allowingPattern(hosts, host, port);
  if (pattern === null) return { kind: 'deny', host, why: "not in the skill's network list" };
  let address: string;
  if (isAddress(host)) {
    address = host.replace(/^\[|\]$/g, '');
  } else {
    try {
      address = await lookup(host);
    } catch {
      return { kind: 'unreachable', host, why: 'the name does not resolve' };
    }
  }
  if (isLocalAddress(address) && !namesLocal(pattern)) {
    return { kind: 'deny', host, why: `${address} is this computer or its link; only a list that names it reaches it` };
  }
  return { kind: 'allow', host, address };
}
