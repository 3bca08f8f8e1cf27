/** Hand-built Skill, Tool and ToolParam objects for template tests (no loader involved). */
import { blankSkill } from '../../../src-main/core/skills/parse-skill.js';
import type { PlaceholderSyntax, Skill, Tool, ToolParam } from '../../../src-main/shared/model.js';

/** A parameter; optional, no dash allowed and no enum values unless overridden. */
export function param(name: string, type: ToolParam['type'], overrides: Partial<ToolParam> = {}): ToolParam {
  return { name, type, enumValues: [], required: false, allowDash: false, description: '', default: null, line: 1, ...overrides };
}

/** A tool with the given Command text and parameters. */
export function tool(name: string, command: string, params: ToolParam[] = []): Tool {
  return { name, description: '', params, command, commandLine: 1, examples: null, line: 1 };
}

/** A loaded, healthy skill holding `tools`, in the given placeholder syntax. */
export function skill(tools: Tool[], syntax: PlaceholderSyntax = 'angle', overrides: Partial<Skill> = {}): Skill {
  return {
    ...blankSkill('/skills/demo', { path: '/skills', kind: 'home', trust: 'user', syntax }),
    hash: 'f'.repeat(64),
    description: 'A demo skill.',
    version: '1.0.0',
    tools,
    ...overrides,
  };
}
