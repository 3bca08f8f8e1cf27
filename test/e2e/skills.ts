/** The skills the end-to-end scenarios run against: user skills with real tools (node + fixture scripts), one broken. */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const NODE = process.execPath;
const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/processes/${name}`, import.meta.url));

/** Path of the script the argv tools run. */
export const PRINT_ARGV = fixture('print-argv.mjs');

function toolSkill(
  name: string,
  description: string,
  command: string,
  params = '| message | string | yes | What to say |\n| count | integer | no | How many |',
): string {
  return `---
name: ${name}
description: ${description}
version: 1.0.0
modes: [Global, Dev, Meeting]
reads: ["${dirname(PRINT_ARGV)}"]
---
# ${name}

## Usage

Run the tool below.

### echo

Prints its arguments as JSON.

#### Parameters

| Name | Type | Required | Description |
|---|---|---|---|
${params}

#### Command

\`\`\`
${command}
\`\`\`
`;
}

const argvCommand = `${NODE} ${PRINT_ARGV} <<message>> --count <<count:1>>`;

/** A tool skill printing its argv; `description` is what scenario 5 edits on disk. */
export function argvSkill(name: string, description = `Prints what ${name} receives.`): string {
  return toolSkill(name, description, argvCommand);
}

/** Every skill the worker's server starts with, by directory name. */
export const SKILLS: Record<string, string> = {
  'echo-args': argvSkill('echo-args'),
  'assistant-echo': argvSkill('assistant-echo'),
  'always-echo': argvSkill('always-echo'),
  editable: argvSkill('editable', 'First version of the editable skill.'),
  'slow-talker': toolSkill(
    'slow-talker',
    'Talks slowly, for live output.',
    `${NODE} ${fixture('behave.mjs')} out:first-line sleep:600000 out:never-printed`,
    '| message | string | no | Ignored |',
  ),
  'release-notes': `---
name: release-notes
description: How releases are written up, with a checklist.
version: 2.0.0
---
# Release notes

Write them for people, not for machines.

## Zephyrine checklist

Before a zephyrine release:

- [x] bump the version
- [ ] tag the commit

| Step | Owner |
|---|---|
| changelog | author |
| announce | maintainer |
`,
  // A tool whose Command names a parameter it does not declare: the skill loads with an error and no tool of it runs.
  'broken-tool': toolSkill('broken-tool', 'Has a tool that cannot run.', `${NODE} ${PRINT_ARGV} <<message>> <<undeclared>>`),
  // The second corpus's quirks: an unquoted date in metadata, comma-separated allowed-tools, Chinese prose.
  'zh-quirks': `---
name: zh-quirks
description: 整理会议记录。Use when summarising a meeting.
allowed-tools: Read, Grep
metadata:
  updated: 2026-03-05
---
# 会议记录

## 适用场景

当用户需要整理会议纪要、提炼行动项时使用。
`,
  'broken-skill': `---
name: broken-skill
version: 1.0.0
---
# Broken

This skill forgot its description.
`,
};
