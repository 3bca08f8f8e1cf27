/**
 * What every bundled pack promises: it loads with no diagnostic at all, carries the fields every
 * format and ADR-001 want, runs only programs it declares, and its Examples are calls that render.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCommand } from '../../../src-main/core/template/render-command.js';
import type { Mode, Skill } from '../../../src-main/shared/model.js';
import { cli } from '../../support/cli.js';
import { testHome } from '../../support/temp.js';
import { SKILLS_DIR, loadPacks } from './bundled-packs.js';

interface Expected {
  modes: Mode[];
  readOnly: boolean;
  tools: string[];
  /** ADR-001 classification when the pack is a sidecar; the others are stable, direct, read-only-result skills. */
  sidecar?: { attachTargets: string[]; effectMode: string };
}

const PACKS: Record<string, Expected> = {
  'artifact-checksum': {
    modes: ['Global', 'Dev'],
    readOnly: true,
    tools: ['checksum_artifact'],
    sidecar: { attachTargets: ['artifact', 'output'], effectMode: 'enrich' },
  },
  'commit-message': { modes: ['Global', 'Dev'], readOnly: false, tools: [] },
  files: { modes: ['Global', 'Dev'], readOnly: true, tools: ['list_directory', 'file_head', 'word_count', 'file_type', 'find_files'] },
  git: { modes: ['Global', 'Dev'], readOnly: true, tools: ['git_status', 'git_log', 'git_diff', 'git_branch', 'git_show'] },
  network: { modes: ['Global', 'Dev', 'Meeting'], readOnly: false, tools: ['resolve_host', 'ping_host'] },
  'skill-authoring': { modes: ['Global', 'Dev'], readOnly: false, tools: [] },
  system: { modes: ['Global', 'Dev', 'Meeting'], readOnly: true, tools: ['system_uptime', 'disk_usage', 'memory_usage', 'list_processes', 'port_listeners'] },
};

const skills = loadPacks().list();

/** The `User:` lines of a tool's Examples, each with the `Call:` line that follows it. */
function examplePairs(examples: string): { user: string; tool: string; args: unknown }[] {
  const lines = examples.split('\n').map((line) => line.trim());
  const pairs: { user: string; tool: string; args: unknown }[] = [];
  lines.forEach((line, index) => {
    if (!line.startsWith('User: ')) return;
    const call = /^Call: ([a-z0-9_]+) (\{.*\})$/.exec(lines[index + 1] ?? '');
    expect(call, `"${line}" is followed by a Call: line`).not.toBeNull();
    pairs.push({ user: line.slice('User: '.length), tool: call?.[1] ?? '', args: JSON.parse(call?.[2] ?? 'null') });
  });
  return pairs;
}

/** The programs a bundled script runs: its interpreter and each program it starts (held to the script's text below). */
const SCRIPT_RUNS: Record<string, string[]> = { 'scripts/disk-usage': ['perl', 'df'] };

describe('a bundled script', () => {
  it.each(Object.entries(SCRIPT_RUNS))('%s starts only its interpreter and %j', (script, runs) => {
    const text = readFileSync(join(SKILLS_DIR, 'system', script), 'utf8');
    const [interpreter, ...started] = runs;
    expect(text.split('\n')[0]).toBe(`#!/usr/bin/env ${interpreter ?? ''}`);
    const starts = [...text.matchAll(/(?:open\s+my\s+\$\w+,\s*'-\|',|exec)\s+'([^']+)'/g)].map((m) => m[1]);
    expect(new Set(starts)).toEqual(new Set(started));
  });
});

describe('the bundled packs', () => {
  it('are exactly the packs this suite knows', () => {
    expect(skills.map((skill) => skill.name)).toEqual(Object.keys(PACKS).sort());
  });

  it('pass `skilltray check skills` with no errors and no warnings', async () => {
    const home = testHome();
    const outcome = await cli(['check', SKILLS_DIR, '--json'], home);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    const report = JSON.parse(outcome.stdout) as { skills: unknown[]; errors: number; warnings: number };
    expect(report).toMatchObject({ errors: 0, warnings: 0 });
    expect(report.skills).toHaveLength(Object.keys(PACKS).length);
  });

  describe.each(skills.map((skill): [string, Skill] => [skill.name, skill]))('%s', (name, skill) => {
    const expected = PACKS[name] as Expected;

    it('loads as a bundled skill with no diagnostics', () => {
      expect(skill.diagnostics).toEqual([]);
      expect(skill.state).toBe('ok');
      expect(skill.trust).toBe('bundled');
      expect(skill.syntax).toBe('angle');
    });

    it('carries the identity fields of every format', () => {
      expect(skill.version).toBe('1.0.0');
      expect(skill.license).toBe('MIT');
      expect(skill.description.length).toBeLessThanOrEqual(256);
      expect(skill.description).toMatch(/\. Use when .{20,}\.$/);
      expect(skill.frontmatter).toHaveProperty('timeout');
      expect(skill.frontmatter).toHaveProperty(['requires', 'bins']);
    });

    it('is classified under ADR-001: a stable direct skill with a read-only result, or an attach-only sidecar', () => {
      if (expected.sidecar) {
        expect(skill.classification).toEqual({ role: 'sidecar', invocation: 'attach', ...expected.sidecar });
      } else {
        expect(skill.classification).toEqual({
          role: expect.stringMatching(/^(procedure|utility)$/),
          invocation: 'direct',
          attachTargets: [],
          effectMode: 'read_only',
        });
        expect(skill.frontmatter).not.toHaveProperty(['metadata', 'classification', 'attach_targets']);
      }
      expect(skill.status).toBe('stable');
      expect(skill.domain.length).toBeGreaterThan(0);
      expect(skill.tags.length).toBeGreaterThan(0);
    });

    it('is offered in its modes, with its read_only and its tools', () => {
      expect(skill.modes).toEqual(expected.modes);
      expect(skill.readOnly).toBe(expected.readOnly);
      expect(skill.alwaysAsk).toBe(false);
      expect(skill.tools.map((tool) => tool.name)).toEqual(expected.tools);
    });

    if (expected.tools.length === 0) return;

    it('declares exactly the programs its tools run in requires.bins', () => {
      const programs = skill.tools.flatMap((tool) => {
        const program = renderCommand(skill, tool.name, examplePairs(tool.examples ?? '')[0]?.args, { cwd: '/' }).program;
        // A script of the skill's own runs its interpreter and the programs it names.
        return SCRIPT_RUNS[program] ?? [program];
      });
      expect(new Set(programs)).toEqual(new Set(skill.requires.bins));
      expect(skill.requires.env).toEqual([]);
    });

    it.each(expected.tools)('%s has a description, typed parameters and 2–3 examples that render', (toolName) => {
      const tool = skill.tools.find((candidate) => candidate.name === toolName);
      expect(tool?.description).toMatch(/^[A-Z].{20,}\.$/);
      for (const param of tool?.params ?? []) expect(param.description.length).toBeGreaterThan(5);
      const pairs = examplePairs(tool?.examples ?? '');
      expect(pairs.length).toBeGreaterThanOrEqual(2);
      expect(pairs.length).toBeLessThanOrEqual(3);
      for (const pair of pairs) {
        expect(pair.tool).toBe(toolName);
        expect(() => renderCommand(skill, toolName, pair.args, { cwd: '/' })).not.toThrow();
      }
    });
  });
});
