/**
 * Asking less because runs are contained, and more when they are not: bundled read-only tools and
 * remembered approvals run unasked only contained; where no sandbox is available (simulated by
 * injecting one that is not) they ask, and where nobody can be asked they are refused (E601). Only
 * the person can take a skill out of the sandbox; a remembered approval lapses when the profile
 * widens, and one given for this session ends with the session.
 */
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { noSandbox, type Sandbox } from '../../../src-main/core/process/sandbox/sandbox.js';
import { ordinaryDir, requireSandbox } from '../../support/sandbox.js';
import { skillMd, testHome, writeSkill, type TestHome } from '../../support/temp.js';
import { rejectionOf } from '../../support/errors.js';

const cores: SkilltrayCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

const SIMULATED = noSandbox('simulated for this test: no sandbox here');

/** A core over the test home, its bundled skills sealed into a manifest as the build would ship them. */
function open(t: TestHome, sandbox?: Sandbox): SkilltrayCore {
  t.sealBundled();
  const core = new SkilltrayCore(t.config(), sandbox === undefined ? {} : { sandbox });
  cores.push(core);
  return core;
}

/** A skill whose one tool runs `sh -c <<script>>`. */
function shell(root: string, name: string, frontmatter: Record<string, unknown> = {}): void {
  writeSkill(
    root,
    name,
    skillMd(
      { name, description: `Runs a script (${name}).`, version: '1.0.0', ...frontmatter },
      '\n### sh\n\nRuns it.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| script | string | yes | script |\n\n#### Command\n\n```\nsh -c <<script>>\n```\n',
    ),
  );
}

const call = (skill: string, cwd: string, script = 'echo ok') => ({ skill, tool: 'sh', args: { script }, surface: 'mcp' as const, cwd });

describe('where no sandbox is available (injected)', () => {
  it('a bundled read-only tool asks instead of running, and nobody to ask is E601 naming why', async () => {
    const t = testHome();
    shell(t.bundled, 'reader', { read_only: true });
    const core = open(t, SIMULATED);
    const dry = core.runs.dryRun(call('reader', t.work));
    expect(dry).toMatchObject({
      decision: 'ask',
      sandbox: { name: 'read-only', contained: false, mechanism: null, why: 'simulated for this test: no sandbox here' },
    });
    const error = await rejectionOf(core.runs.run(call('reader', t.work), { approval: { kind: 'none' } }));
    expect(error.code).toBe('E601');
    expect(error.message).toContain('is bundled and read-only, but it cannot be contained here (simulated for this test: no sandbox here), so it asks');
    expect(core.runs.history()[0]).toMatchObject({ status: 'refused', sandbox: { contained: false } });
  });

  it('an "Always" given while contained asks again where runs cannot be contained', async () => {
    requireSandbox();
    const t = testHome();
    shell(t.skills, 'tool');
    const contained = open(t);
    await contained.runs.run(call('tool', t.work), { approval: { kind: 'prompt', ask: async () => ({ verdict: 'always', actor: 'ada' }) } });
    expect((await contained.runs.run(call('tool', t.work), { approval: { kind: 'none' } })).decision.by).toBe('remembered');
    await contained.close();
    const bare = open(t, SIMULATED);
    const error = await rejectionOf(bare.runs.run(call('tool', t.work), { approval: { kind: 'none' } }));
    expect(error.message).toContain("you chose to always allow 'tool/sh', but it cannot be contained here");
  });

  it('the person approving runs it uncontained, and the record says so', async () => {
    const t = testHome();
    shell(t.skills, 'tool');
    const core = open(t, SIMULATED);
    const report = await core.runs.run(call('tool', t.work), { approval: { kind: 'preapproved', actor: 'ada' } });
    expect(report.sandbox).toMatchObject({
      name: 'workspace',
      network: false,
      hosts: [],
      contained: false,
      mechanism: null,
      why: 'simulated for this test: no sandbox here',
      limitsWhy: 'simulated for this test: no sandbox here',
    });
    expect(core.runs.getRun(report.id).sandbox).toEqual(report.sandbox);
    expect(core.policy.sandboxStatus()).toEqual({ mechanism: null, available: false, why: 'simulated for this test: no sandbox here', unsandboxed: [] });
  });
});

describe('only the person takes a skill out of the sandbox', () => {
  it("a skill's own frontmatter cannot: it still runs contained", async () => {
    requireSandbox();
    const t = testHome();
    shell(t.bundled, 'sneaky', { read_only: true, sandbox: 'none', profile: 'none', unsandboxed: true });
    const core = open(t);
    expect(core.runs.dryRun(call('sneaky', t.work))).toMatchObject({ decision: 'auto', sandbox: { name: 'read-only', contained: true } });
  });

  it('the person can, for one skill: its runs ask, run truly uncontained, and it can be put back', async () => {
    requireSandbox();
    const t = testHome();
    shell(t.bundled, 'reader', { read_only: true });
    const core = open(t);
    expect(core.policy.setSkillSandboxed('reader', false)).toMatchObject({ available: true, mechanism: 'bubblewrap', unsandboxed: ['reader'] });
    expect(core.runs.dryRun(call('reader', t.work))).toMatchObject({ decision: 'ask', sandbox: { name: 'none', network: true, contained: false } });
    const outside = ordinaryDir();
    const report = await core.runs.run(call('reader', t.work, `echo x > ${outside}/written`), { approval: { kind: 'preapproved', actor: 'ada' } });
    expect(report.result.exitCode).toBe(0);
    expect(readdirSync(outside)).toEqual(['written']);
    core.policy.setSkillSandboxed('reader', true);
    expect(core.runs.dryRun(call('reader', t.work))).toMatchObject({ decision: 'auto', sandbox: { name: 'read-only', contained: true } });
  });
});

describe('remembered approvals and the profile', () => {
  it('turning the sandbox off widens the profile: the approval lapses and it asks again', async () => {
    requireSandbox();
    const t = testHome();
    shell(t.skills, 'tool', { read_only: true });
    const core = open(t);
    await core.runs.run(call('tool', t.work), { approval: { kind: 'prompt', ask: async () => ({ verdict: 'always', actor: 'ada' }) } });
    expect(core.policy.remembered()).toMatchObject([{ skill: 'tool', tool: 'sh', profile: { name: 'read-only', network: false }, expires: 'revoke' }]);
    core.policy.setSkillSandboxed('tool', false);
    const dry = core.runs.dryRun(call('tool', t.work));
    expect(dry.decision).toBe('ask');
    expect(dry.reason).toContain('it would now run not sandboxed, more than the read-only, no network you allowed');
  });

  it('"for this session" lasts while its owner runs: another session asks', async () => {
    requireSandbox();
    const t = testHome();
    shell(t.skills, 'tool');
    const first = open(t);
    await first.runs.run(call('tool', t.work), { approval: { kind: 'prompt', ask: async () => ({ verdict: 'always', actor: 'ada', expires: 'session' }) } });
    expect(first.policy.remembered()).toMatchObject([{ expires: 'session' }]);
    expect(first.runs.dryRun(call('tool', t.work)).decision).toBe('auto');
    const second = open(t);
    expect(second.policy.remembered()).toEqual([]);
    expect(second.runs.dryRun(call('tool', t.work)).decision).toBe('ask');
    expect(first.runs.history()[0]).toMatchObject({ answer: 'always-session' });
  });
});
