/**
 * What a run's proxy lets through. A host must match the skill's list (`*` for any) before
 * anything is looked up, so a name the list refuses never reaches a DNS server (no exfiltration by
 * lookup). An allowed name is resolved once, here, and the connection goes to that very address,
 * judged by where it leads (address-ranges.ts):
 * - `*` (`network: true`) reaches the public internet only: no private, CGNAT, ULA, multicast,
 *   documentation or reserved address, and nothing of this computer's, in any spelling or form;
 * - a list reaches another network's address (a private one) through any of its patterns, since
 *   naming a host is what a list is for;
 * - this computer and its link (loopback, unspecified, link-local, cloud metadata, every address
 *   of its own interfaces) only through a pattern that names that address (`127.0.0.1`, `[::1]`,
 *   `localhost` for loopback), never through a name that resolves there (DNS rebinding).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import { ANY_HOST } from '../../../shared/network-reach.js';
import { allowingPattern, canonicalHost, isAddress, parseHostPattern } from '../../skills/network-hosts.js';
import { addressReach, isLoopback, sameAddress } from './address-ranges.js';

/** Resolves a name to one address, as the OS would for a connection. */
export type Lookup = (host: string) => Promise<string>;

/** This computer's own addresses, read afresh for each connection (interfaces come and go). */
export type OwnAddresses = () => string[];

/** Where the proxy may connect; why the allow-list refuses it; or why it cannot be reached (a name that does not resolve). */
export type Verdict =
  { kind: 'allow'; host: string; address: string } | { kind: 'deny'; host: string; why: string } | { kind: 'unreachable'; host: string; why: string };

/** Whether a pattern names this very address (or `localhost`, the loopback's name): only such a pattern reaches this computer. */
function namesAddress(pattern: string, address: string): boolean {
  const parsed = parseHostPattern(pattern);
  if (typeof parsed === 'string' || parsed.wildcard) return false;
  if (parsed.host === 'localhost') return isLoopback(address);
  return isAddress(parsed.host) && sameAddress(parsed.host, address);
}

const systemOwn: OwnAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .flatMap((entry) => (entry === undefined ? [] : [entry.address]));

const systemLookup: Lookup = async (host) => (await dnsLookup(host)).address;

/**
 * Decides a connection to `text`:`port` for a run allowed `hosts`, resolving an allowed name with
 * `lookup` and knowing this computer's addresses from `own`.
 */
export async function judge(
  hosts: readonly string[],
  text: string,
  port: number,
  lookup: Lookup = systemLookup,
  own: OwnAddresses = systemOwn,
): Promise<Verdict> {
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
  const mine = own();
  const reach = addressReach(address, mine);
  if (reach.kind === 'local' && !namesAddress(pattern, address)) {
    return { kind: 'deny', host, why: `${address} is ${reach.why}; only a list that names this address reaches it` };
  }
  if (reach.kind === 'private' && pattern === ANY_HOST) {
    return { kind: 'deny', host, why: `${address} is not on the public internet (${reach.why}); only a list that names it reaches it` };
  }
  return { kind: 'allow', host, address };
}
