/**
 * The profile a skill gets, its box (reads, writes, limits), and how two profiles compare: a wider
 * one (more of the filesystem, the network, more hosts, this computer's own network, a new read or
 * write, more of a resource) lapses what was granted for a narrower one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../../src-main/core/policy/decide.js';
import { describeProfile, profileFor, sameHosts, widening, widens } from '../../../src-main/core/policy/profile.js';
import { DEFAULT_LIMIT_CEILING, DEFAULT_LIMITS, effectiveLimits } from '../../../src-main/core/policy/resource-limits.js';
import type { NetworkHosts } from '../../../src-main/shared/model.js';
import type { SandboxProfile } from '../../../src-main/shared/runs.js';
import { makeSkill, makeTool } from './skill-fixture.js';

const box = (reads: string[] = [], writes: string[] = [], limits = {}) => ({ reads, writes, limits });

describe('the box in a profile', () => {
  it('carries what the skill declares: reads always, writes only for a workspace tool, and its limits', () => {
    const declared = box(['~/.gitconfig'], ['.git'], { processes: 512 });
    expect(profileFor(makeSkill({ box: declared }), false)).toEqual({
      name: 'workspace',
      network: false,
      hosts: [],
      reads: ['~/.gitconfig'],
      writes: ['.git'],
      limits: { ...DEFAULT_LIMITS, processes: 512 },
    });
    expect(profileFor(makeSkill({ readOnly: true, box: declared }), false)).toMatchObject({ name: 'read-only', writes: [] });
  });

  it('gives a skill more than the default only up to the ceiling the person set', () => {
    expect(effectiveLimits({}, DEFAULT_LIMIT_CEILING)).toEqual(DEFAULT_LIMITS);
    expect(effectiveLimits({ memoryMiB: 4096, cpuSeconds: 99_999 }, DEFAULT_LIMIT_CEILING)).toEqual({ ...DEFAULT_LIMITS, memoryMiB: 4096, cpuSeconds: 600 });
    // A ceiling below the default lowers what every run gets.
    expect(effectiveLimits({}, { ...DEFAULT_LIMIT_CEILING, processes: 64 }).processes).toBe(64);
    expect(profileFor(makeSkill({ box: box([], [], { memoryMiB: 12_000 }) }), false, { ...DEFAULT_LIMIT_CEILING, memoryMiB: 10_000 }).limits?.memoryMiB).toBe(
      10_000,
    );
  });
});

describe('widening', () => {
  const granted: SandboxProfile = { name: 'read-only', network: false, hosts: [], reads: ['~/.gitconfig'], writes: [], limits: DEFAULT_LIMITS };

  it('a new read, a new write, or more of any resource widens, and says which', () => {
    expect(widening({ ...granted, reads: ['~/.gitconfig', '~/.ssh/config'] }, granted)).toBe('it would now also read ~/.ssh/config');
    expect(widening({ ...granted, name: 'workspace', writes: ['.git'] }, { ...granted, name: 'workspace' })).toBe('it would now also write .git in its folder');
    expect(widening({ ...granted, limits: { ...DEFAULT_LIMITS, memoryMiB: 4096 } }, granted)).toBe('it would now get more memoryMiB than you allowed');
    expect(widening({ ...granted, network: true, hosts: ['*'] }, granted)).toMatch(/network to any host, more than the read-only, no network you allowed/);
  });

  it('a declared read that now leads elsewhere (its link moved) widens a remembered approval, never a rule made for the declarations as written', () => {
    const remembered = { ...granted, readsAt: ['/home/ana/dotfiles/gitconfig'] };
    expect(widening({ ...granted, readsAt: ['/home/ana/notes/private'] }, remembered)).toBe('what it declares it reads now leads to /home/ana/notes/private');
    expect(widens({ ...granted, readsAt: ['/home/ana/dotfiles/gitconfig'] }, remembered)).toBe(false);
    expect(widens({ ...granted, readsAt: ['/home/ana/notes/private'] }, granted)).toBe(false);
  });

  it('the same or less never widens', () => {
    expect(widens(granted, granted)).toBe(false);
    expect(widens({ ...granted, reads: [], limits: { ...DEFAULT_LIMITS, processes: 10 } }, granted)).toBe(false);
  });

  it('an approval remembered before the box had reads, writes and limits covered them all', () => {
    expect(
      widens({ ...granted, reads: ['~/.anything'], limits: { ...DEFAULT_LIMITS, cpuSeconds: 600 } }, { name: 'read-only', network: false, hosts: [] }),
    ).toBe(false);
  });

  it('a remembered approval lapses, and says so, when the skill would read more than when it was given', () => {
    const skill = makeSkill({ box: box(['~/.gitconfig', '~/.netrc']) });
    const sandbox = { ...profileFor(skill, false), contained: true, mechanism: 'bubblewrap' as const, why: null };
    const decision = decide({
      skill,
      tool: makeTool(),
      mode: 'Global',
      paused: false,
      rules: [],
      remembered: {
        id: 1,
        skill: 'git',
        tool: 'git_status',
        skillHash: skill.hash,
        identity: null,
        programPath: '/usr/bin/git',
        profile: { ...profileFor(makeSkill({ box: box(['~/.gitconfig']) }), false) },
        expires: 'revoke',
        folder: '/work/proj',
        createdAt: 0,
        revokedAt: null,
      },
      programPath: '/usr/bin/git',
      resolveBin: () => '/usr/bin/git',
      env: {},
      enabled: true,
      sandbox,
      cwd: '/work/proj',
    });
    expect(decision).toEqual({ outcome: 'ask', reason: "the approval you gave to always allow 'git/git_status' has lapsed: it would now also read ~/.netrc" });
  });
});

const at = (hosts: NetworkHosts, name: SandboxProfile['name'] = 'read-only'): SandboxProfile => ({
  name,
  network: hosts === 'host' || hosts.length > 0,
  hosts,
});

describe('sandbox profiles and the network', () => {
  it('takes the network from the skill, and gives `none` this computer’s own', () => {
    expect(profileFor(makeSkill({ readOnly: true }), false)).toMatchObject({ name: 'read-only', network: false, hosts: [] });
    expect(profileFor(makeSkill({ network: true, hosts: ['api.github.com'] }), false)).toMatchObject({
      name: 'workspace',
      network: true,
      hosts: ['api.github.com'],
    });
    expect(profileFor(makeSkill({ network: true, hosts: 'host' }), false)).toMatchObject({ hosts: 'host' });
    expect(profileFor(makeSkill({ readOnly: true }), true)).toMatchObject({ name: 'none', network: true, hosts: 'host' });
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
    expect(describeProfile(at(['api.github.com', '*.example.org'], 'workspace'))).toBe(
      'may write in its working directory, network to api.github.com, *.example.org',
    );
    expect(describeProfile(at('host'))).toBe("read-only, this computer's own network");
  });
});
