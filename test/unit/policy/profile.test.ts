/**
 * The profile a skill gets and how two profiles compare: a wider one (more of the filesystem, the
 * network, more hosts, this computer's own network) lapses what was granted for a narrower one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeProfile, profileFor, sameHosts, widens } from '../../../src-main/core/policy/profile.js';
import type { NetworkHosts, SandboxProfile } from '../../../src-main/shared/runs.js';
import { makeSkill } from './skill-fixture.js';

const at = (hosts: NetworkHosts, name: SandboxProfile['name'] = 'read-only'): SandboxProfile => ({ name, network: hosts === 'host' || hosts.length > 0, hosts });

describe('sandbox profiles and the network', () => {
  it('takes the network from the skill, and gives `none` this computer’s own', () => {
    expect(profileFor(makeSkill({ readOnly: true }), false)).toEqual({ name: 'read-only', network: false, hosts: [] });
    expect(profileFor(makeSkill({ network: true, hosts: ['api.github.com'] }), false)).toEqual({ name: 'workspace', network: true, hosts: ['api.github.com'] });
    expect(profileFor(makeSkill({ network: true, hosts: 'host' }), false)).toMatchObject({ hosts: 'host' });
    expect(profileFor(makeSkill({ readOnly: true }), true)).toEqual({ name: 'none', network: true, hosts: 'host' });
  });

  it.each<[string, NetworkHosts, NetworkHosts, boolean]>([
    ['a host more', ['a.io', 'b.io'], ['a.io'], true],
    ['another host', ['b.io'], ['a.io'], true],
    ['fewer hosts', ['a.io'], ['a.io', 'b.io'], false],
    ['any host over a list', ['*'], ['a.io'], true],
    ['a list under any host', ['a.io'], ['*'], false],
    ["this computer's network over any host", 'host', ['*'], true],
    ["anything under this computer's network", ['*'], 'host', false],
    ['a network where there was none', ['a.io'], [], true],
    ['none where there was one', [], ['a.io'], false],
  ])('%s', (_, wanted, granted, wider) => {
    expect(widens(at(wanted), at(granted))).toBe(wider);
  });

  it('never counts a profile wider than itself, and a same list (in any order) is the same', () => {
    const hosts = fc.oneof(fc.constant<NetworkHosts>('host'), fc.uniqueArray(fc.constantFrom('*', 'a.io', '*.b.io', '127.0.0.1:80'), { maxLength: 4 }));
    fc.assert(
      fc.property(hosts, fc.constantFrom<SandboxProfile['name']>('read-only', 'workspace', 'none'), (h, name) => {
        expect(widens(at(h, name), at(h, name))).toBe(false);
        if (h !== 'host') expect(sameHosts(h, [...h].reverse())).toBe(true);
      }),
    );
  });

  it('describes where the network leads', () => {
    expect(describeProfile(at(['api.github.com', '*.example.org'], 'workspace'))).toBe('may write in its working directory, network to api.github.com, *.example.org');
    expect(describeProfile(at('host'))).toBe("read-only, this computer's own network");
  });
});
