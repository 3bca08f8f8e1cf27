/**
 * The network a skill declares, and the host patterns of its allow-list. `network:` in the
 * frontmatter is `false` (or absent: none), `true` (any host), a list of host patterns (those hosts
 * only), or `host` (this computer's own network, shared: ICMP and the system resolver). A pattern is
 * a host name (`api.github.com`), `*.` and a domain of two labels or more (`*.example.org`: its
 * subdomains at any depth, not the domain itself), an IPv4 address or an IPv6 one in brackets, each
 * optionally with `:PORT` (then only that port; without one, any port). Names are compared in their
 * canonical form (lowercase, IDNA, no trailing dot; addresses as the URL standard writes them), so
 * `API.GitHub.com.` and `2130706433` cannot pass for something they are not.
 */
import { ANY_HOST } from '../../shared/network-reach.js';
import type { NetworkHosts } from '../../shared/model.js';
import type { DiagnosticList } from './diagnostics.js';
import type { Frontmatter } from './frontmatter-yaml.js';

/** What `network:` declares: whether the run has a network, and where it leads. */
export interface DeclaredNetwork {
  network: boolean;
  hosts: NetworkHosts;
}

/** A pattern taken apart: the canonical host (or domain, for a wildcard) and the one port it allows, if any. */
export interface HostPattern {
  host: string;
  wildcard: boolean;
  port: number | null;
}

/** What a client or a skill may write as a host: DNS-ish names, or an IPv6 address in brackets. */
const HOST_TEXT = /^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?|\[[0-9A-Fa-f:.]+\])$/;
/** An address as the URL standard writes one after parsing. */
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** The canonical form of a host a client names (`Example.COM.` → `example.com`, `0x7f.1` → `127.0.0.1`, `[0::1]` → `[::1]`), or null when it is none. */
export function canonicalHost(text: string): string | null {
  if (text.length === 0 || text.length > 255 || !HOST_TEXT.test(text)) return null;
  try {
    const host = new URL(`http://${text}/`).hostname.replace(/\.$/, '');
    return host === '' ? null : host;
  } catch {
    return null;
  }
}

/** Whether a canonical host is an IP address (`127.0.0.1`, `[::1]`) rather than a name. */
export function isAddress(host: string): boolean {
  return IPV4.test(host) || host.startsWith('[');
}

/** Parses one pattern as written in SKILL.md; a string says why it is not one. */
export function parseHostPattern(text: string): HostPattern | string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[') && trimmed.split(':').length > 2) return `an IPv6 address goes in brackets, as in [${trimmed}]`;
  const match = /^(.*?)(?::(\d{1,5}))?$/.exec(trimmed) as RegExpExecArray;
  const [, rawHost = '', rawPort] = match;
  const port = rawPort === undefined ? null : Number(rawPort);
  if (port !== null && (port < 1 || port > 65535)) return `port ${rawPort} is not between 1 and 65535`;
  if (rawHost === ANY_HOST) return 'a lone * is not a pattern; write network: true for any host';
  const wildcard = rawHost.startsWith('*.');
  const body = wildcard ? rawHost.slice(2) : rawHost;
  if (body.includes('*')) return 'a * may only stand first, as in *.example.org';
  const host = canonicalHost(body);
  if (host === null) return 'it is not a host name or an IP address';
  if (wildcard && (isAddress(host) || host.split('.').length < 2)) return `*. needs a domain of two labels or more (*.example.org), not '${body}'`;
  return { host, wildcard, port };
}

/** The pattern in its one written form, so two spellings of it compare equal. */
export function formatHostPattern(pattern: HostPattern): string {
  return `${pattern.wildcard ? '*.' : ''}${pattern.host}${pattern.port === null ? '' : `:${pattern.port}`}`;
}

/** The pattern of `hosts` that lets a client reach `host` (canonical) on `port`, or null when none does. */
export function allowingPattern(hosts: readonly string[], host: string, port: number): string | null {
  if (hosts.includes(ANY_HOST)) return ANY_HOST;
  for (const text of hosts) {
    const pattern = parseHostPattern(text);
    if (typeof pattern === 'string' || (pattern.port !== null && pattern.port !== port)) continue;
    if (pattern.wildcard ? host.endsWith(`.${pattern.host}`) : host === pattern.host) return text;
  }
  return null;
}

/** Reads `network:` from the frontmatter; anything else than false, true, host or a list of patterns is E425 (and no network). */
export function readNetwork(fm: Frontmatter, file: string, diags: DiagnosticList): DeclaredNetwork {
  const value = fm.data.network;
  if (value === undefined || value === null || value === false) return { network: false, hosts: [] };
  if (value === true) return { network: true, hosts: [ANY_HOST] };
  if (value === 'host') return { network: true, hosts: 'host' };
  const line = fm.lineOf(['network']);
  if (!Array.isArray(value)) {
    diags.add('E425', `network must be true, false, host or a list of hosts, got ${JSON.stringify(value)}`, file, line);
    return { network: false, hosts: [] };
  }
  const hosts: string[] = [];
  let broken = false;
  value.forEach((entry: unknown) => {
    const pattern = typeof entry === 'string' ? parseHostPattern(entry) : 'it is not a string';
    if (typeof pattern === 'string') {
      broken = true;
      diags.add('E425', `network host ${JSON.stringify(entry)}: ${pattern}`, file, line);
    } else if (!hosts.includes(formatHostPattern(pattern))) {
      hosts.push(formatHostPattern(pattern));
    }
  });
  // A list with a broken entry grants nothing: the skill's tools do not run until it is fixed (E4xx).
  if (broken || hosts.length === 0) return { network: false, hosts: [] };
  return { network: true, hosts };
}
