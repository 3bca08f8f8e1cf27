/**
 * Turning skills on and off, everywhere or per mode: the switch shows in list, a skill turned off
 * leaves discover and what assistants are shown (MCP, HTTP), and its runs are refused (E618) — a
 * bundled skill as much as any other.
 */
import { describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { callOperation, type CallContext } from '../../../src-main/core/operations.js';
import type { Caller } from '../../../src-main/shared/contract.js';
import type { Surface } from '../../../src-main/shared/runs.js';
import { contractHome } from '../contract/fixture.js';
import { callTool, startMcp, structured, toolError } from '../mcp/mcp-session.js';
import { cli } from '../../support/cli.js';
import { rejectionOf } from '../../support/errors.js';

const PERSON: Caller = { kind: 'person' };

const names = (core: SkilltrayCore, surface: Surface, caller: Caller) => {
  const ctx: CallContext = { surface, caller, cwd: core.config.home, approval: { kind: 'none' }, owner: 'serve', version: '0.0.0-test' };
  return callOperation(core, 'list', {}, ctx).then((e) => (e.ok ? (e.value as { skills: { name: string }[] }).skills.map((s) => s.name) : []));
};

describe('skill switches', () => {
  it('off everywhere: shown off in list, gone from discover and from what assistants list, its runs refused with E618', async () => {
    const t = contractHome();
    const core = new SkilltrayCore(t.config());
    try {
      expect(core.agent.discover('log a bird sighting').results.map((r) => r.skill_id)).toContain('field-notes');
      expect(core.skills.setSkillEnabled('field-notes', false)).toEqual([{ skill: 'field-notes', scope: 'all', enabled: false }]);
      const summary = core.skills.listSkills().skills.find((s) => s.name === 'field-notes');
      expect(summary).toMatchObject({ enabled: false, offered: false, switches: [{ scope: 'all', enabled: false }] });
      expect(core.agent.discover('log a bird sighting').results.map((r) => r.skill_id)).not.toContain('field-notes');
      // The person's own screens, CLI and token still show it (to turn it back on); assistants do not see it.
      expect(await names(core, 'browser', PERSON)).toContain('field-notes');
      expect(await names(core, 'cli', PERSON)).toContain('field-notes');
      expect(await names(core, 'http', PERSON)).toContain('field-notes');
      expect(await names(core, 'mcp', { kind: 'assistant', name: 'mcp' })).not.toContain('field-notes');
      expect(await names(core, 'http', { kind: 'assistant', name: 'codex' })).not.toContain('field-notes');

      const refused = await rejectionOf(
        core.runs.run(
          { skill: 'field-notes', tool: 'record_sighting', args: { species: 'robin' }, surface: 'mcp', cwd: t.work },
          { approval: { kind: 'none' } },
        ),
      );
      expect(refused.code).toBe('E618');
      expect(refused.message).toContain('turned off');
      // A bundled read-only skill, which would run without asking, is refused as well.
      core.skills.setSkillEnabled('git', false);
      expect(
        (await rejectionOf(core.runs.run({ skill: 'git', tool: 'git_status', args: {}, surface: 'cli', cwd: t.work }, { approval: { kind: 'none' } }))).code,
      ).toBe('E618');

      expect(core.skills.setSkillEnabled('field-notes', true)).toEqual([]);
      expect(core.agent.discover('log a bird sighting').results.map((r) => r.skill_id)).toContain('field-notes');
      expect(() => core.skills.setSkillEnabled('nope', false)).toThrow(expect.objectContaining({ code: 'E001' }));
    } finally {
      await core.close();
    }
  });

  it('per mode: a mode switch wins over the everywhere switch; the mode in force decides', async () => {
    const t = contractHome();
    const core = new SkilltrayCore(t.config());
    try {
      core.skills.setSkillEnabled('field-notes', false, 'Meeting');
      expect(core.skills.listSkills().skills.find((s) => s.name === 'field-notes')?.enabled).toBe(true);
      core.preferences.setMode('Meeting');
      expect(core.skills.listSkills().skills.find((s) => s.name === 'field-notes')?.enabled).toBe(false);
      expect(core.agent.discover('log a bird sighting').results.map((r) => r.skill_id)).not.toContain('field-notes');
      const refused = await rejectionOf(
        core.runs.run(
          { skill: 'field-notes', tool: 'record_sighting', args: { species: 'robin' }, surface: 'cli', cwd: t.work },
          { approval: { kind: 'none' } },
        ),
      );
      expect(refused.code).toBe('E618');
      expect(refused.message).toContain('Meeting');

      core.preferences.setMode('Global');
      core.skills.setSkillEnabled('field-notes', false);
      core.skills.setSkillEnabled('field-notes', true, 'Dev');
      expect(core.skills.listSkills().skills.find((s) => s.name === 'field-notes')?.switches).toEqual([
        { scope: 'Dev', enabled: true },
        { scope: 'all', enabled: false },
      ]);
      expect(core.skills.listSkills().skills.find((s) => s.name === 'field-notes')?.enabled).toBe(false);
      core.preferences.setMode('Dev');
      expect(core.skills.listSkills().skills.find((s) => s.name === 'field-notes')?.enabled).toBe(true);
      expect(() => core.skills.setSkillEnabled('field-notes', false, 'Nope')).toThrow(expect.objectContaining({ code: 'E610' }));
    } finally {
      await core.close();
    }
  });

  it('the CLI: disable and enable with --mode, and list shows the switch', async () => {
    const t = contractHome();
    expect((await cli(['disable', 'git', '--mode', 'Dev'], t)).stdout).toBe('git is off in Dev mode (switches: Dev off)\n');
    const listed = await cli(['list'], t);
    expect(listed.stdout).toMatch(/^NAME +VERSION +TRUST +STATUS +ON +TOOLS/);
    expect(listed.stdout).toMatch(/^git +\S+ +bundled +\S+ +on +/m);
    expect(listed.stdout).toContain('note: git is off in Dev (skilltray enable git turns it back on)');
    await cli(['disable', 'git'], t);
    expect((await cli(['list'], t)).stdout).toMatch(/^git +\S+ +bundled +\S+ +off +/m);
    const json = JSON.parse((await cli(['list', '--json'], t)).stdout);
    expect(json.skills.find((s: { name: string }) => s.name === 'git')).toMatchObject({ enabled: false, switches: [{ scope: 'all', enabled: false }] });
    expect((await cli(['enable', 'git', '--json'], t)).stdout).toBe('[]\n');
    const bad = await cli(['disable', 'nope'], t);
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining('error[E001]')]);
  });

  it('an assistant reads nothing of a skill turned off: describe, outline, show, open, sources, search and the prompt are E618, and search over every skill leaves it out; the person reads it all', async () => {
    const t = contractHome();
    const core = new SkilltrayCore(t.config());
    const call = (caller: Caller, name: Parameters<typeof callOperation>[1], input: Record<string, unknown>) =>
      callOperation(core, name, input, {
        surface: caller.kind === 'person' ? 'cli' : 'http',
        caller,
        cwd: core.config.home,
        approval: { kind: 'none' },
        owner: 'serve',
        version: '0.0.0-test',
      });
    const assistant: Caller = { kind: 'assistant', name: 'codex' };
    const reads: [Parameters<typeof callOperation>[1], Record<string, unknown>][] = [
      ['describe', { skill: 'field-notes' }],
      ['outline', { skill: 'field-notes' }],
      ['show', { skill: 'field-notes', section: 'Logging a sighting' }],
      ['open', { skill: 'field-notes', path: 'references/species.md' }],
      ['sources', { skill: 'field-notes' }],
      ['search', { skill: 'field-notes', query: 'binoculars' }],
      ['resolve', { skill: 'field-notes', args: [] }],
    ];
    const skillsFound = async (caller: Caller): Promise<string[]> => {
      const found = await call(caller, 'searchAll', { query: 'binoculars' });
      return found.ok ? (found.value as { results: { skill: string }[] }).results.map((hit) => hit.skill) : [];
    };
    try {
      expect(await skillsFound(assistant)).toContain('field-notes');
      core.skills.setSkillEnabled('field-notes', false);
      for (const [name, input] of reads) {
        const answered = await call(assistant, name, input);
        expect(answered.ok ? 'answered' : answered.error.code, name).toBe('E618');
        const person = await call(PERSON, name, input);
        expect(person.ok ? 'answered' : person.error.code, `${name} (person)`).toBe('answered');
      }
      const hidden = await call(assistant, 'searchAll', { query: 'binoculars' });
      expect(hidden.ok && hidden.value).toMatchObject({ results: [], message: 'no results for "binoculars"' });
      expect(await skillsFound(PERSON)).toContain('field-notes');
      core.skills.setSkillEnabled('field-notes', true);
      expect((await call(assistant, 'describe', { skill: 'field-notes' })).ok).toBe(true);
    } finally {
      await core.close();
    }
  });

  it('over MCP: a skill turned off is not listed, not a resource, not a prompt, not discovered, and its tool is refused', async () => {
    const t = contractHome();
    await cli(['disable', 'field-notes'], t);
    const session = await startMcp(t.env);
    expect((await session.client.listPrompts()).prompts.map((p) => p.name)).toContain('commit-message');
    await cli(['disable', 'commit-message'], t);
    expect((await session.client.listPrompts()).prompts.map((p) => p.name)).not.toContain('commit-message');
    const listed = structured(await callTool(session, 'list', {})) as { skills: { name: string }[] };
    expect(listed.skills.map((s) => s.name)).not.toContain('field-notes');
    expect(listed.skills.map((s) => s.name)).toContain('git');
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.name)).not.toContain('field-notes');
    const found = structured(await callTool(session, 'discover', { intent: 'log a bird sighting' })) as { results: { skill_id: string }[] };
    expect(found.results.map((r) => r.skill_id)).not.toContain('field-notes');
    expect(toolError(await callTool(session, 'run', { skill: 'field-notes', tool: 'record_sighting', args: { species: 'robin' } }))).toMatchObject({
      code: 'E618',
      kind: 'skill_disabled',
    });
  });
});
