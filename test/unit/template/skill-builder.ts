/** Hand-built Skill, Tool and ToolParam objects for template tests (no loader involved). */
import type { PlaceholderSyntax, Skill, Tool, ToolParam } from '../../../src-main/shared/model.js';

/** A parameter; optional, no dash allowed and no enum values unless overridden. */
export function param(name: string, type: ToolParam['type'], overrides: Partial<ToolParam> = {}): ToolParam {
  return { name, type, enumValues: [], required: false, allowDash: false, description: '', line: 1, ...overrides };
}

/** A tool with the given Command text and parameters. */
export function tool(name: string, command: string, params: ToolParam[] = []): Tool {
  return { name, description: '', params, command, commandLine: 1, examples: null, line: 1 };
}

/** A loaded, healthy skill holding `tools`, in the given placeholder syntax. */
export function skill(tools: Tool[], syntax: PlaceholderSyntax = 'angle', overrides: Partial<Skill> = {}): Skill {
  return {
    name: 'demo',
    dir: '/skills/demo',
    file: '/skills/demo/SKILL.md',
    root: { path: '/skills', kind: 'home', trust: 'user', syntax },
    trust: 'user',
    syntax,
    hash: 'f'.repeat(64),
    frontmatter: {},
    description: 'A demo skill.',
    version: '1.0.0',
    body: '',
    bodyLine: 1,
    tools,
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
