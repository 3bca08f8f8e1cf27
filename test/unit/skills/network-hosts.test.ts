/**
 * `network:` in SKILL.md and its host patterns: what the loader accepts (with E425 for what it does
 * not), the one written form of a pattern, and which hosts a list lets through — attacked with the
 * spellings a hostile client would try (case, trailing dots, numeric IPv4 forms, lookalike suffixes).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowingPattern, canonicalHost, parseHostPattern } from '../../../src-main/core/skills/network-hosts.js';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import type { Skill } from '../../../src-main/shared/model.js';
import { skillMd, tempDir, writeSkill } from '../../support/temp.js';

function load(network: unknown): Skill {
  const root = tempDir();
  const dir = writeSkill(root, 'demo', skillMd({ name: 'demo', description: 'Does a demo.', version: '1.0.0', network }));
  return parseSkill(dir, { path: root, kind: 'env', trust: 'user', syntax: 'angle' });
}

describe('network: in the frontmatter', () => {
  it.each<[string, unknown, boolean, Skill['hosts']]>([
    ['absent or false: none', false, false, []],
    ['true: any host', true, true, ['*']],
    ["host: this computer's own network", 'host', true, 'host'],
    ['a list: those hosts, each in its written form, once', ['API.GitHub.com.', '*.Example.org', 'api.github.com', '[0:0::1]:8080', '127.0.0.1'], true, ['api.github.com', '*.example.org', '[::1]:8080', '127.0.0.1']],
    ['an empty list: none', [], false, []],
  ])('%s', (_, network, has, hosts) => {
    const skill = load(network);
    expect(skill.diagnostics).toEqual([]);
    expect({ network: skill.network, hosts: skill.hosts }).toEqual({ network: has, hosts });
  });

  it.each<[unknown, RegExp]>([
    ['yes', /network must be true, false, host or a list of hosts, got "yes"/],
    [{ host: 'a' }, /network must be true/],
    [['*'], /a lone \* is not a pattern; write network: true/],
    [['api.*.com'], /a \* may only stand first/],
    [['*.com'], /\*\. needs a domain of two labels or more/],
    [['*.10.0.0.1'], /\*\. needs a domain/],
    [['::1'], /an IPv6 address goes in brackets, as in \[::1\]/],
    [['example.org:0'], /port 0 is not between 1 and 65535/],
    [['example.org:70000'], /port 70000 is not between/],
    [['http://example.org'], /not a host name or an IP address/],
    [['exa mple.org'], /not a host name/],
    [[42], /it is not a string/],
  ])('refuses %j with E425, naming the line, and grants no network', (network, message) => {
    const skill = load(network);
    expect(skill.diagnostics).toEqual([expect.objectContaining({ code: 'E425', severity: 'error', line: 5, message: expect.stringMatching(message) })]);
    expect({ network: skill.network, hosts: skill.hosts }).toEqual({ network: false, hosts: [] });
  });
});

describe('host patterns', () => {
  it('writes every spelling of a host one way', () => {
    expect(canonicalHost('Example.COM.')).toBe('example.com');
    expect(canonicalHost('0x7f.1')).toBe('127.0.0.1');
    expect(canonicalHost('2130706433')).toBe('127.0.0.1');
    expect(canonicalHost('[0:0:0:0:0:0:0:1]')).toBe('[::1]');
    expect(canonicalHost('bücher.example')).toBeNull();
    for (const bad of ['', 'a/b', 'a@b', 'a b', '[::1', 'evil.com#.example.org', 'a\r\nb']) expect(canonicalHost(bad)).toBeNull();
  });

  it('lets through exactly the listed hosts, a wildcard only below its domain, a port only when listed', () => {
    const hosts = ['api.github.com', '*.example.org', '127.0.0.1:8080', '[::1]'];
    expect(allowingPattern(hosts, 'api.github.com', 443)).toBe('api.github.com');
    expect(allowingPattern(hosts, 'a.b.example.org', 80)).toBe('*.example.org');
    expect(allowingPattern(hosts, '127.0.0.1', 8080)).toBe('127.0.0.1:8080');
    expect(allowingPattern(hosts, '[::1]', 22)).toBe('[::1]');
    for (const [host, port] of [
      ['example.org', 80],
      ['evilexample.org', 80],
      ['example.org.evil.com', 80],
      ['github.com', 443],
      ['xapi.github.com', 443],
      ['127.0.0.1', 8081],
      ['127.0.0.2', 8080],
    ] as const) {
      expect(allowingPattern(hosts, host, port), `${host}:${port}`).toBeNull();
    }
    expect(allowingPattern(['*'], 'anything.example', 1)).toBe('*');
  });

  it('never lets a host through unless it is the listed name or below a listed wildcard', () => {
    // Labels start with a letter: all-digit names are IPv4 addresses to the URL standard. And none
    // starts xn--: that is Punycode, which must decode (xn--0 does not, and is rightly refused).
    const label = fc.stringMatching(/^[a-z]([a-z0-9-]{0,8}[a-z0-9])?$/).filter((l) => !l.startsWith('xn--'));
    expect(parseHostPattern('xn--0.example')).toBe('it is not a host name or an IP address');
    const name = fc.array(label, { minLength: 2, maxLength: 4 }).map((labels) => labels.join('.'));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), name), { minLength: 1, maxLength: 4 }), name, fc.integer({ min: 1, max: 65535 }), (entries, host, port) => {
        const hosts = entries.map(([wild, domain]) => (wild ? `*.${domain}` : domain));
        const parsed = hosts.map((h) => parseHostPattern(h));
        expect(parsed.every((p) => typeof p !== 'string')).toBe(true);
        const pattern = allowingPattern(hosts, host, port);
        const deserved = entries.some(([wild, domain]) => (wild ? host.endsWith(`.${domain}`) : host === domain));
        expect(pattern !== null).toBe(deserved);
      }),
    );
  });
});
