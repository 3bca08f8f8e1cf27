/** A generated corpus of realistic skills: frontmatter with classification, tools, prose and reference files. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const WORDS =
  'git deploy review summarize calendar invoice translate search index backup restore monitor alert schedule compile lint format test release archive notes email meeting transcript audit report'.split(
    ' ',
  );
const ROLES = ['procedure', 'utility', 'sidecar'];

function pick<T>(list: readonly T[], i: number): T {
  return list[i % list.length] as T;
}

/** The SKILL.md of skill number `i`. */
export function skillText(i: number): string {
  const a = pick(WORDS, i);
  const b = pick(WORDS, i * 7 + 3);
  const role = pick(ROLES, i);
  const invocation = role === 'sidecar' ? 'attach' : 'direct';
  const targets = role === 'sidecar' ? '\n    attach_targets: [run, transcript]' : '';
  return `---
name: skill-${i}
description: ${a} and ${b} helper number ${i}. Use when the user wants to ${a} or ${b} things.
version: 1.${i % 10}.0
modes: [Global, Dev]
read_only: ${i % 2 === 0}
timeout: ${10 + (i % 50)}
metadata:
  classification:
    role: ${role}
    invocation: ${invocation}${targets}
    effect_mode: read_only
    tags: [${a}, ${b}]
    status: ${i % 5 === 0 ? 'experimental' : 'stable'}
---
# Skill ${i}

How to ${a} with care, and when to ${b} instead. This section explains the ${a} workflow in
enough words for full-text search to have something to rank: configure, authenticate, retry.

## Usage

Run the tools below. Prefer ${b} when the ${a} step fails.

### ${a.replace(/-/g, '_')}_${i}

Do the ${a} step for item ${i}.

#### Parameters

| Name | Type | Required | Description |
|------|------|----------|-------------|
| target | string | yes | What to ${a} |
| count | integer | no | How many |
| verbose | boolean | no | Talk more |

#### Command

\`\`\`bash
echo ${a} <<target>> -n <<count:10>> <<verbose:--verbose>>
\`\`\`

### ${b.replace(/-/g, '_')}_list

List ${b} entries.

#### Parameters

None.

#### Command

\`\`\`bash
ls -la
\`\`\`

## Troubleshooting

If ${a} keeps failing, check the logs and the ${b} configuration.
`;
}

/** Writes `count` skills (SKILL.md + one reference file each) under `root`; returns every file path. */
export function writeCorpus(root: string, count: number): string[] {
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const dir = join(root, `skill-${i}`);
    mkdirSync(join(dir, 'references'), { recursive: true });
    const skill = join(dir, 'SKILL.md');
    const ref = join(dir, 'references', 'guide.md');
    writeFileSync(skill, skillText(i));
    writeFileSync(ref, `# Guide ${i}\n\n## Details\n\nLonger notes about ${pick(WORDS, i)} for skill ${i}.\n`);
    files.push(skill, ref);
  }
  return files;
}

/** A SKILL.md named `name` whose one tool, `tool`, runs `true`; `extra` frontmatter lines follow the version. */
export function trueSkillText(name: string, description: string, tool: string, extra: readonly string[] = []): string {
  return [
    '---',
    `name: ${name}`,
    `description: ${description}`,
    'version: 1.0.0',
    ...extra,
    '---',
    '',
    `### ${tool}`,
    '',
    'Exits with status 0.',
    '',
    '#### Parameters',
    '',
    'None.',
    '',
    '#### Command',
    '',
    '```',
    'true',
    '```',
    '',
  ].join('\n');
}
