/**
 * `skilltray new`: a first skill that checks clean, written where the person's skills live. One
 * tool with a Parameters table, a Command and an Example, so `run <name> <tool> --example 1` works
 * at once; every line is there to be edited.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { skillcErrors } from '../../shared/error-messages/skillc.js';

/** A skill name: Agent Skills' slug, at most 64 characters. */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
/** A tool name (gibb.eri.sh). */
const TOOL_NAME = /^[a-z0-9_]+$/;

/** The nearest slug to what was typed (`My Skill` → `my-skill`), or null when nothing of it is left. */
export function slugOf(name: string): string | null {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_NAME)
    .replace(/-+$/, '');
  return slug === '' ? null : slug;
}

/** Checks a new skill's and tool's names (E150, with the nearest accepted name). */
export function checkNewNames(name: string, tool: string): void {
  if (!SKILL_NAME.test(name) || name.length > MAX_NAME) {
    const rule = name.length > MAX_NAME ? `it is longer than ${MAX_NAME} characters` : 'a skill name is lower-case letters and digits, with single hyphens between words';
    const slug = slugOf(name);
    throw skillcErrors.invalidNewName('skill', name, rule, slug === name ? null : slug);
  }
  if (!TOOL_NAME.test(tool)) {
    const suggested = tool.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
    throw skillcErrors.invalidNewName('tool', tool, 'a tool name is lower-case letters, digits and _', suggested === '' ? null : suggested);
  }
}

/** The tool a skill gets when none is named: its name in snake case. */
export function defaultToolName(name: string): string {
  return name.replace(/-/g, '_');
}

/** Names YAML (1.2, or 1.1 as PyYAML reads it) takes for something other than text unless quoted. */
const NOT_TEXT = /^(?:[0-9].*|y|n|yes|no|on|off|true|false|null)$/;

/** The SKILL.md of a new skill: frontmatter, a heading, one tool with Parameters, a Command and an Example. */
export function scaffoldText(name: string, tool: string): string {
  const words = name.replace(/-/g, ' ');
  const title = words.charAt(0).toUpperCase() + words.slice(1);
  return `---
name: ${NOT_TEXT.test(name) ? `"${name}"` : name}
description: ${title}. Say here what it does and when an assistant should use it. Use when asked about ${words}.
read_only: true
---

# ${title}

What this skill is for, in a few sentences: an assistant reads this part when it picks the skill.
\`read_only: true\` says its tools change nothing, so a run sees files read-only; remove that line
when a tool writes in the folder it runs in.

## Tools

### ${tool}

Say what the tool does in one paragraph: assistants read it to choose the tool and its arguments.

#### Parameters

| Name | Type | Required | Description |
|------|------|----------|-------------|
| text | string | yes | What to print |

#### Command

\`\`\`
echo <<text>>
\`\`\`

#### Examples

\`\`\`
User: try my new skill
Call: ${tool} {"text": "hello from ${name}"}
\`\`\`
`;
}

/** Names close to `name` that are free in `parent`, for E151. */
function freeNames(parent: string, name: string, taken: (candidate: string) => boolean): string[] {
  const free: string[] = [];
  for (const candidate of [`${name}-2`, `my-${name}`, `${name}-skill`]) {
    if (candidate.length <= MAX_NAME && !taken(candidate) && !existsSync(join(parent, candidate))) free.push(candidate);
  }
  return free;
}

/**
 * Writes `<parent>/<name>/SKILL.md` and returns its folder. Refuses a bad name (E150), a folder that
 * exists or a name a loaded skill already has (`loadedAt` says where; E151). The folder is made
 * exclusively, so two `new` at once never share one.
 */
export function writeScaffold(parent: string, name: string, tool: string, loadedAt: (name: string) => string | null): string {
  checkNewNames(name, tool);
  const dir = join(parent, name);
  const taken = (candidate: string): boolean => loadedAt(candidate) !== null;
  const loaded = loadedAt(name);
  if (existsSync(dir)) throw skillcErrors.skillExists(name, `the folder ${dir}`, freeNames(parent, name, taken));
  if (loaded !== null) throw skillcErrors.skillExists(name, `loaded from ${loaded}; a new one would hide it`, freeNames(parent, name, taken));
  mkdirSync(parent, { recursive: true });
  try {
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw skillcErrors.skillExists(name, `the folder ${dir}`, freeNames(parent, name, taken));
    throw error;
  }
  writeFileSync(join(dir, 'SKILL.md'), scaffoldText(name, tool), { flag: 'wx' });
  return dir;
}
