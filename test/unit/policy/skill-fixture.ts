/** A complete Skill and Tool for policy tests, with only the fields a test cares about overridden. */
import { blankSkill } from '../../../src-main/core/skills/parse-skill.js';
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

/** A skill as the registry hands it over: its identity agrees with its trust (a bundled one matched the manifest). */
export function makeSkill(overrides: Partial<Skill> = {}): Skill {
  const trust = overrides.trust ?? 'user';
  const root: SkillRoot = { path: '/skills', kind: trust === 'bundled' ? 'bundled' : 'home', trust, syntax: 'angle' };
  const hash = overrides.hash ?? 'hash-v1';
  return {
    ...blankSkill('/skills/git', root),
    hash,
    trust,
    identity: { rootKind: root.kind, path: '/skills/git', hash, manifest: trust === 'bundled' ? 'match' : null, trust, unverified: null, hides: [] },
    description: 'Git operations.',
    version: '1.0.0',
    bodyLine: 5,
    tools: [makeTool()],
    ...overrides,
  };
}
