/** A complete Skill and Tool for policy tests, with only the fields a test cares about overridden. */
import type { Skill, SkillRoot, Tool } from '../../../src-main/shared/model.js';

export function makeTool(overrides: Partial<Tool> = {}): Tool {
  return {
    name: 'git_status',
    description: 'Show the status.',
    params: [],
    command: 'git status --short',
    commandLine: 10,
    examples: null,
    line: 5,
    ...overrides,
  };
}

export function makeSkill(overrides: Partial<Skill> = {}): Skill {
  const trust = overrides.trust ?? 'user';
  const root: SkillRoot = { path: '/skills', kind: trust === 'bundled' ? 'bundled' : 'home', trust, syntax: 'angle' };
  return {
    name: 'git',
    dir: '/skills/git',
    file: '/skills/git/SKILL.md',
    root,
    trust,
    syntax: 'angle',
    hash: 'hash-v1',
    frontmatter: {},
    description: 'Git operations.',
    version: '1.0.0',
    body: '',
    bodyLine: 5,
    tools: [makeTool()],
    modes: ['Global'],
    readOnly: false,
    alwaysAsk: false,
    timeoutSec: 30,
    requires: { bins: [], env: [] },
    kode: null,
    classification: null,
    domain: [],
    tags: [],
    status: null,
    license: null,
    compatibility: null,
    allowedTools: null,
    diagnostics: [],
    state: 'ok',
    shadows: [],
    ...overrides,
  };
}
