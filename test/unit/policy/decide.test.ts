import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Decision, DecideInput } from '../../../src-main/core/policy/decide.js';
import { decide } from '../../../src-main/core/policy/decide.js';
import type { IdentityPin, Remembered, Rule, RulePin, SandboxView } from '../../../src-main/shared/runs.js';
import type { Mode } from '../../../src-main/shared/model.js';
import { runnerErrors } from '../../../src-main/shared/error-messages/runner.js';
import { makeSkill, makeTool } from './skill-fixture.js';

const bins: Record<string, string> = { git: '/usr/bin/git', jq: '/usr/bin/jq' };

/** How a run is contained: read-only under bubblewrap unless a case says otherwise. */
const contained: SandboxView = { name: 'read-only', network: false, hosts: [], contained: true, mechanism: 'bubblewrap', why: null };
const workspace: SandboxView = { ...contained, name: 'workspace' };
const withNetwork: SandboxView = { ...contained, network: true, hosts: ['*'] };
const noSandbox: SandboxView = { ...contained, contained: false, mechanism: null, why: 'bubblewrap (bwrap) is not installed' };
const turnedOff: SandboxView = { name: 'none', network: true, hosts: 'host', contained: false, mechanism: null, why: 'you turned the sandbox off' };

function input(overrides: Partial<DecideInput> = {}): DecideInput {
  return {
    skill: makeSkill(),
    tool: makeTool(),
    mode: 'Global',
    paused: false,
    rules: [],
    remembered: null,
    cwd: '/home/me/proj',
    programPath: '/usr/bin/git',
    resolveBin: (name) => bins[name] ?? null,
    env: { HOME: '/home/me' },
    enabled: true,
    sandbox: contained,
    ...overrides,
  };
}

/** Who the fixtures' two gits are: your own in ~/skills-like /skills/git, and the bundled one as shipped. */
const userGit: IdentityPin = { rootKind: 'home', path: '/skills/git', trust: 'user' };
const bundledGit: IdentityPin = { rootKind: 'bundled', path: '/skills/git', trust: 'bundled' };

const remembered = (overrides: Partial<Remembered> = {}): Remembered => ({
  id: 7,
  skill: 'git',
  tool: 'git_status',
  skillHash: 'hash-v1',
  identity: userGit,
  programPath: '/usr/bin/git',
  profile: { name: 'read-only', network: false, hosts: [] },
  folder: '/home/me/proj',
  expires: 'revoke',
  createdAt: 1,
  revokedAt: null,
  ...overrides,
});

/** Pins for both gits, made when they could write in their folder without the network. */
const gitPins = (pin: Partial<RulePin> = {}): RulePin[] =>
  [userGit, bundledGit].map((identity) => ({ skill: 'git', ...identity, profile: { name: 'workspace', network: false, hosts: [] }, ...pin }));

const allowAll: Rule = { id: 1, pattern: 'skill:*', effect: 'allow', createdAt: 0, pins: gitPins() };
const denyGit: Rule = { id: 2, pattern: 'skill:git', effect: 'deny', createdAt: 0, pins: [] };
const allowStatus: Rule = { id: 3, pattern: 'tool:git/git_status', effect: 'allow', createdAt: 0, pins: gitPins() };
const bundledReadOnly = makeSkill({ trust: 'bundled', readOnly: true });
/** A program of the person's, found on PATH before any system folder had one. */
const planted = '/home/me/.local/bin/git';
const secretProgramError = runnerErrors.programInSecretPlace('git', 'git_status', '/home/me/.ssh/git', 'lies in ~/.ssh');

/** A compact view of a decision for table comparisons. */
function summary(d: Decision): string {
  switch (d.outcome) {
    case 'auto':
      return `auto:${d.by}${d.ruleId === undefined ? '' : `#${d.ruleId}`}`;
    case 'ask':
      return 'ask';
    case 'deny':
      return `deny:${d.error.code}#${d.ruleId}`;
    case 'refuse':
      return `refuse:${d.error.code}`;
  }
}

describe('decide', () => {
  it.each<[string, Partial<DecideInput>, string]>([
    // refusals, in order
    ['paused', { paused: true }, 'refuse:E608'],
    ['paused beats everything allowing', { paused: true, skill: bundledReadOnly, rules: [allowAll], remembered: remembered() }, 'refuse:E608'],
    ['paused beats the mode filter', { paused: true, mode: 'Meeting' }, 'refuse:E608'],
    ['turned off', { enabled: false }, 'refuse:E618'],
    [
      'turned off, even if allowed by rule and remembered',
      { enabled: false, skill: bundledReadOnly, rules: [allowAll], remembered: remembered() },
      'refuse:E618',
    ],
    ['paused beats turned off', { paused: true, enabled: false }, 'refuse:E608'],
    ['turned off beats the mode filter', { enabled: false, mode: 'Dev' }, 'refuse:E618'],
    ['mode not offered', { mode: 'Dev' }, 'refuse:E605'],
    ['mode not offered, even if allowed by rule', { mode: 'Meeting', rules: [allowAll] }, 'refuse:E605'],
    ['mode offered when listed', { mode: 'Dev', skill: makeSkill({ modes: ['Dev', 'Global'] }) }, 'ask'],
    ['mode filter beats a missing bin', { mode: 'Dev', skill: makeSkill({ requires: { bins: ['nope'], env: [] } }) }, 'refuse:E605'],
    ['missing bin', { skill: makeSkill({ requires: { bins: ['git', 'nope'], env: [] } }) }, 'refuse:E606'],
    ['bins present', { skill: makeSkill({ requires: { bins: ['git', 'jq'], env: [] } }) }, 'ask'],
    ['missing bin beats missing env', { skill: makeSkill({ requires: { bins: ['nope'], env: ['TOKEN'] } }) }, 'refuse:E606'],
    ['unset env', { skill: makeSkill({ requires: { bins: [], env: ['TOKEN'] } }) }, 'refuse:E607'],
    ['empty env', { skill: makeSkill({ requires: { bins: [], env: ['TOKEN'] } }), env: { TOKEN: '' } }, 'refuse:E607'],
    ['env set', { skill: makeSkill({ requires: { bins: [], env: ['TOKEN'] } }), env: { TOKEN: 'x' } }, 'ask'],
    ['an env named like a key every object inherits is unset too', { skill: makeSkill({ requires: { bins: [], env: ['constructor'] } }) }, 'refuse:E607'],
    ['missing env beats a missing program', { skill: makeSkill({ requires: { bins: [], env: ['TOKEN'] } }), programPath: null }, 'refuse:E607'],
    ['program not found', { programPath: null }, 'refuse:E701'],
    ['program not found, even if allowed', { programPath: null, rules: [allowAll], skill: bundledReadOnly }, 'refuse:E701'],
    ['refusal beats a deny rule', { programPath: null, rules: [denyGit] }, 'refuse:E701'],
    ['a program in a secret place, even if allowed', { programRefused: secretProgramError, rules: [allowAll], skill: bundledReadOnly }, 'refuse:E707'],
    // deny rule beats always_ask, allow, remembered, policy
    ['deny rule', { rules: [denyGit] }, 'deny:E602#2'],
    ['deny beats always_ask', { rules: [denyGit], skill: makeSkill({ alwaysAsk: true }) }, 'deny:E602#2'],
    ['deny beats a broader allow', { rules: [allowAll, denyGit] }, 'deny:E602#2'],
    ['deny beats remembered', { rules: [denyGit], remembered: remembered() }, 'deny:E602#2'],
    ['deny beats bundled read-only', { rules: [denyGit], skill: bundledReadOnly }, 'deny:E602#2'],
    ['a narrower allow beats a broader deny', { rules: [denyGit, allowStatus] }, 'auto:rule#3'],
    // always_ask beats every way of skipping approval
    ['always_ask', { skill: makeSkill({ alwaysAsk: true }) }, 'ask'],
    ['always_ask beats an allow rule', { skill: makeSkill({ alwaysAsk: true }), rules: [allowAll] }, 'ask'],
    ['always_ask beats remembered', { skill: makeSkill({ alwaysAsk: true }), remembered: remembered() }, 'ask'],
    ['always_ask beats bundled read-only', { skill: makeSkill({ trust: 'bundled', readOnly: true, alwaysAsk: true }) }, 'ask'],
    // allow rule beats remembered and policy
    ['allow rule', { rules: [allowAll] }, 'auto:rule#1'],
    ['allow beats remembered', { rules: [allowAll], remembered: remembered() }, 'auto:rule#1'],
    ['allow beats lapsed remembered', { rules: [allowAll], remembered: remembered({ skillHash: 'old' }) }, 'auto:rule#1'],
    ['allow beats policy', { rules: [allowAll], skill: bundledReadOnly }, 'auto:rule#1'],
    ['a rule for another skill does nothing', { rules: [{ ...denyGit, pattern: 'skill:npm' }] }, 'ask'],
    // remembered beats policy, and lapses
    ['remembered', { remembered: remembered() }, 'auto:remembered'],
    ['remembered beats policy', { remembered: remembered({ identity: bundledGit }), skill: bundledReadOnly }, 'auto:remembered'],
    ['remembered lapses on a hash change', { remembered: remembered({ skillHash: 'hash-v0' }) }, 'ask'],
    ['remembered lapses on a program path change', { remembered: remembered({ programPath: '/home/me/bin/git' }) }, 'ask'],
    [
      'a lapsed approval asks even for bundled read-only',
      { remembered: remembered({ identity: bundledGit, skillHash: 'hash-v0' }), skill: bundledReadOnly },
      'ask',
    ],
    ['a revoked approval is ignored', { remembered: remembered({ revokedAt: 5 }) }, 'ask'],
    ['an approval for another tool is ignored', { remembered: remembered({ tool: 'git_diff' }) }, 'ask'],
    // only a contained run goes unasked on a remembered approval or bundled policy
    ['remembered, not contained', { remembered: remembered(), sandbox: noSandbox }, 'ask'],
    ['remembered, sandbox turned off', { remembered: remembered(), sandbox: turnedOff }, 'ask'],
    [
      'remembered for a wider profile covers a narrower one',
      { remembered: remembered({ profile: { name: 'workspace', network: true, hosts: ['*'] } }) },
      'auto:remembered',
    ],
    ['remembered lapses when the profile widens to workspace', { remembered: remembered(), sandbox: workspace }, 'ask'],
    ['remembered lapses when the profile gains the network', { remembered: remembered(), sandbox: withNetwork }, 'ask'],
    // pinned to its folder: another folder asks; "any folder" holds only for a read-only run
    ['remembered in another folder asks', { remembered: remembered(), cwd: '/home/me/other' }, 'ask'],
    ['remembered in any folder, read-only', { remembered: remembered({ folder: null }), cwd: '/home/me/other' }, 'auto:remembered'],
    [
      'remembered in any folder does not hold for a workspace run',
      { remembered: remembered({ folder: null, profile: { name: 'workspace', network: false, hosts: [] } }), sandbox: workspace },
      'ask',
    ],
    [
      'remembered in its folder, workspace',
      { remembered: remembered({ profile: { name: 'workspace', network: false, hosts: [] } }), sandbox: workspace },
      'auto:remembered',
    ],
    ['bundled read-only, not contained', { skill: bundledReadOnly, sandbox: noSandbox }, 'ask'],
    [
      'bundled read-only, its program outside the system folders',
      { skill: bundledReadOnly, programPath: planted, sandbox: { ...contained, programs: [planted] } },
      'ask',
    ],
    [
      'an allow rule still runs a program outside the system folders',
      { rules: [allowAll], programPath: planted, sandbox: { ...contained, programs: [planted] } },
      'auto:rule#1',
    ],
    ['bundled read-only, sandbox turned off', { skill: bundledReadOnly, sandbox: turnedOff }, 'ask'],
    ['an allow rule runs even uncontained (the person wrote it)', { rules: [allowAll], sandbox: noSandbox }, 'auto:rule#1'],
    // rules and remembered approvals are pinned to who the skill is, what its runs may do, and (remembered) the folder
    [
      'an allow rule made for the bundled git does not allow your own git',
      { rules: [{ ...allowStatus, pins: gitPins().filter((p) => p.trust === 'bundled') }] },
      'ask',
    ],
    ['nor outranks a broader deny for it', { rules: [denyGit, { ...allowStatus, pins: gitPins().filter((p) => p.trust === 'bundled') }] }, 'deny:E602#2'],
    [
      'an allow rule made for your git does not allow the bundled one',
      { rules: [{ ...allowAll, pins: gitPins().filter((p) => p.trust === 'user') }], skill: makeSkill({ trust: 'bundled' }) },
      'ask',
    ],
    [
      'an allow rule made for your git in another folder does not allow this one',
      { rules: [{ ...allowAll, pins: gitPins({ path: '/elsewhere/git' }) }] },
      'ask',
    ],
    ['an allow rule made before this skill was here does not allow it', { rules: [{ ...allowAll, pins: [] }] }, 'ask'],
    ['an allow rule from before pins does not allow until pinned', { rules: [{ ...allowAll, pins: null }] }, 'ask'],
    [
      'an allow rule asks when the profile is wider than when it was made',
      { rules: [{ ...allowAll, pins: gitPins({ profile: { name: 'read-only', network: false, hosts: [] } }) }], sandbox: workspace },
      'ask',
    ],
    ['an allow rule asks when the run gains the network', { rules: [allowAll], sandbox: withNetwork }, 'ask'],
    ['an allow rule for a wider profile covers a narrower one', { rules: [allowAll], sandbox: contained }, 'auto:rule#1'],
    ['remembered in another folder asks', { remembered: remembered({ folder: '/home/me/other' }) }, 'ask'],
    ['remembered in a parent folder covers a folder inside it', { remembered: remembered({ folder: '/home/me' }) }, 'auto:remembered'],
    ['remembered in a folder does not cover its parent', { remembered: remembered({ folder: '/home/me/proj/src' }) }, 'ask'],
    ['remembered in a folder does not cover a sibling sharing its prefix', { remembered: remembered({ folder: '/home/me/pro' }) }, 'ask'],
    ['remembered for any folder', { remembered: remembered({ folder: null }) }, 'auto:remembered'],
    ['remembered for the bundled git asks for your own', { remembered: remembered({ identity: bundledGit }) }, 'ask'],
    ['remembered from before identities holds by its content hash', { remembered: remembered({ identity: null }) }, 'auto:remembered'],
    // a skill whose files cannot be vouched for never runs unasked; a deny rule still refuses it
    [
      'unverified asks over an allow rule',
      { rules: [allowAll], skill: makeSkill({ identity: { ...makeSkill().identity, unverified: 'x (changed)' } }) },
      'ask',
    ],
    [
      'unverified asks over a remembered approval',
      { remembered: remembered(), skill: makeSkill({ identity: { ...makeSkill().identity, unverified: 'x (changed)' } }) },
      'ask',
    ],
    [
      'unverified is still denied by a deny rule',
      { rules: [denyGit], skill: makeSkill({ identity: { ...makeSkill().identity, unverified: 'x (changed)' } }) },
      'deny:E602#2',
    ],
    // policy
    ['bundled read-only', { skill: bundledReadOnly }, 'auto:policy'],
    ['bundled read-only with the network asks', { skill: bundledReadOnly, sandbox: withNetwork }, 'ask'],
    ['bundled, not read-only', { skill: makeSkill({ trust: 'bundled' }) }, 'ask'],
    ['user, read-only', { skill: makeSkill({ readOnly: true }) }, 'ask'],
    ['user', {}, 'ask'],
  ])('%s', (_, overrides, expected) => {
    expect(summary(decide(input(overrides)))).toBe(expected);
  });

  it('explains each refusal in a sentence naming what is missing', () => {
    const msg = (overrides: Partial<DecideInput>): string => {
      const d = decide(input(overrides));
      if (d.outcome !== 'refuse') throw new Error(`expected a refusal, got ${d.outcome}`);
      return d.error.message;
    };
    expect(msg({ paused: true })).toBe("runs are paused in Skilltray; 'git/git_status' will not run until the person at the desktop resumes them");
    expect(msg({ mode: 'Meeting', skill: makeSkill({ modes: ['Dev', 'Global'] }) })).toBe(
      "'git/git_status' is not offered in Meeting mode; skill 'git' runs in Dev, Global mode",
    );
    expect(msg({ skill: makeSkill({ requires: { bins: ['fzf', 'git', 'rg'], env: [] } }) })).toBe(
      "skill 'git' needs the programs 'fzf', 'rg', not found on PATH; install them or fix PATH, then try again",
    );
    expect(msg({ skill: makeSkill({ requires: { bins: [], env: ['GH_TOKEN'] } }) })).toBe(
      "skill 'git' needs the environment variable GH_TOKEN, which is not set where Skilltray runs",
    );
    expect(msg({ programPath: null, program: 'git' })).toBe("'git/git_status' cannot run: 'git' was not found or is not executable");
    expect(msg({ programPath: null })).toBe("'git/git_status' cannot run: the program it runs was not found or is not executable");
  });

  it('carries the missing names and the rule in error details', () => {
    const bins = decide(input({ skill: makeSkill({ requires: { bins: ['a', 'git', 'b'], env: [] } }) }));
    expect(bins.outcome === 'refuse' && bins.error.details).toEqual({ skill: 'git', tool: 'git_status', missing: ['a', 'b'] });
    const deny = decide(input({ rules: [denyGit] }));
    expect(deny).toMatchObject({ outcome: 'deny', by: 'rule', ruleId: 2 });
    expect(deny.outcome === 'deny' && deny.error.toJSON()).toEqual({
      code: 'E602',
      kind: 'denied_by_rule',
      message: "'git/git_status' is denied by rule #2 (skill:git)",
      details: { skill: 'git', tool: 'git_status', ruleId: 2, pattern: 'skill:git' },
    });
  });

  it('says why a remembered approval lapsed', () => {
    const hash = decide(input({ remembered: remembered({ skillHash: 'hash-v0' }) }));
    expect(hash).toEqual({
      outcome: 'ask',
      reason: "the approval you gave to always allow 'git/git_status' has lapsed: the skill's files have changed since you chose to always allow it",
    });
    const path = decide(input({ remembered: remembered({ programPath: '/opt/git' }) }));
    expect(path.outcome === 'ask' && path.reason).toContain('the program now resolves to /usr/bin/git instead of /opt/git');
    const wider = decide(input({ remembered: remembered(), sandbox: workspace }));
    expect(wider.outcome === 'ask' && wider.reason).toContain(
      'it would now run may write in its working directory, no network, more than the read-only, no network you allowed',
    );
    const elsewhere = decide(input({ remembered: remembered(), cwd: '/home/me/other' }));
    expect(elsewhere.outcome === 'ask' && elsewhere.reason).toContain('you allowed it in /home/me/proj, and this run is in /home/me/other');
    const anywhere = decide(input({ remembered: remembered({ folder: null, profile: { name: 'workspace', network: false, hosts: [] } }), sandbox: workspace }));
    expect(anywhere.outcome === 'ask' && anywhere.reason).toContain('it was allowed in any folder, which holds only for a read-only tool');
  });

  it('says why a rule or an approval is not about this skill, here, as it runs now', () => {
    const reason = (overrides: Partial<DecideInput>): string => {
      const d = decide(input(overrides));
      if (d.outcome !== 'ask') throw new Error(`expected ask, got ${d.outcome}`);
      return d.reason;
    };
    expect(reason({ rules: [{ ...allowStatus, pins: gitPins().filter((p) => p.trust === 'bundled') }] })).toBe(
      "skill 'git' is a user skill, so its runs need approval (rule #3 (tool:git/git_status) was made for the bundled skill Skilltray shipped, not for this one (the user skill in /skills/git))",
    );
    expect(reason({ rules: [{ ...allowAll, pins: [] }] })).toContain(
      "rule #1 (skill:*) does not cover this 'git' (a rule covers the skills it named when it was made); add it again to let it cover this one",
    );
    expect(reason({ rules: [{ ...allowAll, pins: gitPins({ profile: { name: 'read-only', network: false, hosts: [] } }) }], sandbox: workspace })).toBe(
      "'git/git_status' needs approval: rule #1 (skill:*) was made when it ran read-only, no network; it would now run may write in its working directory, no network, more than the rule allows",
    );
    expect(reason({ remembered: remembered({ folder: '/home/me/other' }) })).toBe(
      "the approval you gave to always allow 'git/git_status' has lapsed: you allowed it in /home/me/other, and this run is in /home/me/proj; an Always holds in its own folder and the folders inside it",
    );
    expect(reason({ remembered: remembered({ identity: bundledGit }) })).toContain(
      'it was given to the bundled skill Skilltray shipped, and this is the user skill in /skills/git',
    );
    expect(reason({ skill: bundledReadOnly, sandbox: withNetwork })).toBe(
      "'git/git_status' is bundled but reaches the network (network to any host), so it asks",
    );
    expect(
      reason({
        rules: [allowAll],
        skill: makeSkill({
          identity: { ...makeSkill().identity, unverified: "installed pack 'p' was edited behind its back: SKILL.md (changed) differ from packs.lock.json" },
        }),
      }),
    ).toBe(
      "installed pack 'p' was edited behind its back: SKILL.md (changed) differ from packs.lock.json; a skill whose files cannot be vouched for never runs without asking",
    );
  });

  describe('the network', () => {
    const listed: SandboxView = { ...contained, network: true, hosts: ['api.github.com'] };
    const thisComputer: SandboxView = { ...contained, network: true, hosts: 'host' };
    const withHosts = (hosts: SandboxView['hosts']): Partial<Remembered> => ({ profile: { name: 'read-only', network: true, hosts } });
    const allowFor = (hosts: SandboxView['hosts']): Rule => ({ ...allowStatus, pins: gitPins({ profile: { name: 'workspace', network: true, hosts } }) });
    it.each<[string, Partial<DecideInput>, string]>([
      // A bundled tool with the network never runs unasked on bundled policy (a planted read-only skill with network: true did).
      ['bundled read-only with any host asks', { skill: bundledReadOnly, sandbox: withNetwork }, 'ask'],
      ['bundled read-only with a host list asks', { skill: bundledReadOnly, sandbox: listed }, 'ask'],
      [
        'bundled read-only with a host list, remembered for that list',
        { skill: bundledReadOnly, sandbox: listed, remembered: remembered({ ...withHosts(['api.github.com']), identity: bundledGit }) },
        'auto:remembered',
      ],
      // An Always is pinned to exactly the reach it was given for.
      ['any host, remembered for any host', { sandbox: withNetwork, remembered: remembered(withHosts(['*'])) }, 'auto:remembered'],
      ['any host, remembered for a list', { sandbox: withNetwork, remembered: remembered(withHosts(['api.github.com'])) }, 'ask'],
      ['any host, remembered before host lists (the host network)', { sandbox: withNetwork, remembered: remembered(withHosts('host')) }, 'ask'],
      ['a list, remembered for any host', { sandbox: listed, remembered: remembered(withHosts(['*'])) }, 'ask'],
      ['a list, remembered for a longer list', { sandbox: listed, remembered: remembered(withHosts(['api.github.com', 'x.io'])) }, 'ask'],
      [
        'a list, remembered for the same list in another order',
        { sandbox: { ...listed, hosts: ['b.io', 'a.io'] }, remembered: remembered(withHosts(['a.io', 'b.io'])) },
        'auto:remembered',
      ],
      // This computer's own network asks every time; only a rule the person wrote lets it through.
      ["this computer's network, remembered for it", { sandbox: thisComputer, remembered: remembered(withHosts('host')) }, 'ask'],
      ["this computer's network, bundled read-only", { skill: bundledReadOnly, sandbox: thisComputer }, 'ask'],
      // A rule covers the reach it was pinned with: this computer's network covers any list, `*` any list of hosts.
      ["this computer's network, an allow rule made for it", { sandbox: thisComputer, rules: [allowFor('host')] }, 'auto:rule#3'],
      ['any host, an allow rule made for any host', { sandbox: withNetwork, rules: [allowFor(['*'])] }, 'auto:rule#3'],
      ['a list, an allow rule made for any host', { sandbox: listed, rules: [allowFor(['*'])] }, 'auto:rule#3'],
      ['a list, an allow rule made for that list', { sandbox: listed, rules: [allowFor(['api.github.com'])] }, 'auto:rule#3'],
      [
        'a longer list than the allow rule was made for',
        { sandbox: { ...listed, hosts: ['api.github.com', 'x.io'] }, rules: [allowFor(['api.github.com'])] },
        'ask',
      ],
      ['any host, an allow rule made for a list', { sandbox: withNetwork, rules: [allowFor(['api.github.com'])] }, 'ask'],
      ["this computer's network, an allow rule made for any host", { sandbox: thisComputer, rules: [allowFor(['*'])] }, 'ask'],
      ['the network, an allow rule made without it', { sandbox: listed, rules: [allowStatus] }, 'ask'],
      ['a deny rule still denies', { sandbox: thisComputer, rules: [denyGit] }, 'deny:E602#2'],
    ])('%s', (_, overrides, expected) => {
      expect(summary(decide(input(overrides)))).toBe(expected);
    });

    it('says where the network leads when it asks', () => {
      expect(decide(input({ skill: bundledReadOnly, sandbox: listed }))).toEqual({
        outcome: 'ask',
        reason: "'git/git_status' is bundled but reaches the network (network to api.github.com), so it asks",
      });
      expect(decide(input({ sandbox: withNetwork, remembered: remembered(withHosts(['api.github.com'])) }))).toEqual({
        outcome: 'ask',
        reason: "you chose to always allow 'git/git_status' with network to api.github.com; it now asks for network to any host, so it asks",
      });
      expect(decide(input({ sandbox: thisComputer, remembered: remembered(withHosts('host')) }))).toEqual({
        outcome: 'ask',
        reason:
          "'git/git_status' shares this computer's own network (ICMP and the system resolver, no Unix sockets), so every run asks unless a rule of yours allows it",
      });
    });
  });

  it('says why a run that would go unasked asks when it cannot be contained', () => {
    expect(decide(input({ skill: bundledReadOnly, sandbox: noSandbox }))).toEqual({
      outcome: 'ask',
      reason: "skill 'git' is bundled and read-only, but it cannot be contained here (bubblewrap (bwrap) is not installed), so it asks",
    });
    expect(decide(input({ remembered: remembered({ profile: { name: 'none', network: true, hosts: 'host' } }), sandbox: turnedOff }))).toEqual({
      outcome: 'ask',
      reason: "you chose to always allow 'git/git_status', but you turned its sandbox off, so it asks",
    });
  });

  it('gives a reason for every auto and ask', () => {
    expect(decide(input({ rules: [allowAll] }))).toEqual({ outcome: 'auto', by: 'rule', ruleId: 1, reason: 'allowed by rule #1 (skill:*)' });
    expect(decide(input({ skill: bundledReadOnly }))).toEqual({
      outcome: 'auto',
      by: 'policy',
      reason: "skill 'git' is bundled with Skilltray and read-only, and runs contained (read-only, no network)",
    });
    expect(decide(input())).toEqual({ outcome: 'ask', reason: "skill 'git' is a user skill, so its runs need approval" });
    expect(decide(input({ skill: makeSkill({ alwaysAsk: true }) }))).toEqual({
      outcome: 'ask',
      reason: "skill 'git' sets always_ask, so every run needs approval",
    });
  });

  it('lets no rule run a skill an MCP source serves: a deny rule still denies it, and only an Always the person gave it runs it unasked', () => {
    const pin: IdentityPin = { rootKind: 'mcp', path: '/home/me/.skilltray/mcp/skills/src.git', trust: 'user' };
    const served = makeSkill({
      name: 'src.git',
      root: { path: '/home/me/.skilltray/mcp/skills', kind: 'mcp', trust: 'user', syntax: 'angle' },
      identity: { ...makeSkill().identity, rootKind: 'mcp', path: pin.path },
      readOnly: true,
    });
    const pins = [{ skill: 'src.git', ...pin, profile: { name: 'workspace' as const, network: false, hosts: [] } }];
    const rules: Rule[] = [
      { id: 11, pattern: 'skill:*', effect: 'allow', createdAt: 0, pins },
      { id: 12, pattern: 'skill:src.*', effect: 'allow', createdAt: 0, pins },
      { id: 13, pattern: 'tool:src.git/git_status', effect: 'allow', createdAt: 0, pins },
      { id: 14, pattern: 'skill:src.git', effect: 'deny', createdAt: 0, pins: [] },
    ];
    fc.assert(
      fc.property(fc.subarray(rules), fc.boolean(), (given, always) => {
        const d = decide(
          input({
            skill: served,
            rules: given,
            remembered: always ? remembered({ skill: 'src.git', identity: pin, profile: { name: 'workspace', network: false, hosts: [] } }) : null,
          }),
        );
        // The most specific rule governs (a tool's allow outranks the skill's deny), and an allow that governs only asks.
        const denies = given.some((r) => r.id === 14) && !given.some((r) => r.id === 13);
        const expected = denies ? 'deny:E602#14' : always ? 'auto:remembered' : 'ask';
        expect(summary(d)).toBe(expected);
        if (d.outcome === 'ask' && !always) expect(d.reason).toContain('served by an MCP source');
      }),
    );
  });

  it('holds the precedence for any combination of inputs', () => {
    const arbitrary = fc.record({
      paused: fc.boolean(),
      mode: fc.constantFrom<Mode>('Global', 'Dev', 'Meeting'),
      modes: fc.subarray<Mode>(['Global', 'Dev', 'Meeting']),
      missingBin: fc.boolean(),
      missingEnv: fc.boolean(),
      programFound: fc.boolean(),
      rules: fc.subarray([allowAll, denyGit, allowStatus]),
      alwaysAsk: fc.boolean(),
      readOnly: fc.boolean(),
      bundled: fc.boolean(),
      remembered: fc.constantFrom('none', 'valid', 'hash', 'path', 'narrower'),
      contained: fc.boolean(),
    });
    fc.assert(
      fc.property(arbitrary, (a) => {
        const d = decide(
          input({
            paused: a.paused,
            mode: a.mode,
            skill: makeSkill({
              modes: a.modes,
              alwaysAsk: a.alwaysAsk,
              readOnly: a.readOnly,
              trust: a.bundled ? 'bundled' : 'user',
              requires: { bins: a.missingBin ? ['nope'] : ['git'], env: a.missingEnv ? ['UNSET'] : [] },
            }),
            rules: a.rules,
            programPath: a.programFound ? '/usr/bin/git' : null,
            remembered:
              a.remembered === 'none'
                ? null
                : remembered({
                    identity: a.bundled ? bundledGit : userGit,
                    ...(a.remembered === 'hash'
                      ? { skillHash: 'x' }
                      : a.remembered === 'path'
                        ? { programPath: '/x' }
                        : a.remembered === 'narrower'
                          ? { profile: { name: 'read-only', network: false, hosts: [] } }
                          : { profile: { name: 'workspace', network: false, hosts: [] } }),
                  }),
            sandbox: a.contained ? workspace : { ...workspace, contained: false, mechanism: null, why: 'none here' },
          }),
        );
        const refused = a.paused
          ? 'E608'
          : !a.modes.includes(a.mode)
            ? 'E605'
            : a.missingBin
              ? 'E606'
              : a.missingEnv
                ? 'E607'
                : !a.programFound
                  ? 'E701'
                  : null;
        const governing = a.rules.includes(allowStatus) ? allowStatus : a.rules.includes(denyGit) ? denyGit : a.rules.includes(allowAll) ? allowAll : null;
        const expected =
          refused !== null
            ? `refuse:${refused}`
            : governing?.effect === 'deny'
              ? 'deny:E602#2'
              : a.alwaysAsk
                ? 'ask'
                : governing !== null
                  ? `auto:rule#${governing.id}`
                  : a.remembered === 'valid' && a.contained
                    ? 'auto:remembered'
                    : a.remembered !== 'none'
                      ? 'ask'
                      : a.bundled && a.readOnly && a.contained
                        ? 'auto:policy'
                        : 'ask';
        expect(summary(d)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('bundled trust covers the program', () => {
  it("asks, naming the program, when a bundled read-only tool's program is not the system's", () => {
    const d = decide(input({ skill: bundledReadOnly, programPath: planted, sandbox: { ...contained, programs: [planted] } }));
    expect(d).toMatchObject({ outcome: 'ask', reason: expect.stringContaining(`its program ${planted} is not in the system's folders`) });
    expect(decide(input({ skill: bundledReadOnly }))).toMatchObject({ outcome: 'auto', by: 'policy' });
  });
});
