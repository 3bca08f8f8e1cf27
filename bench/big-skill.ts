/**
 * A generated large skill for the build, search and outline benches: a SKILL.md and 4,999 reference
 * files (~16 KB each, ~79 MB in all) of 21 sections each — H1, H2 and H3 with prose, lists, tables
 * and fenced code whose `#` comments are not headings. Deterministic: the same bytes every run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const VOCABULARY = (
  'kernel stream launch schedule memory buffer cache queue worker thread process signal socket packet route ' +
  'request response header token session credential secret policy approve deny review audit trace span metric ' +
  'index search rank score snippet section heading outline source manifest hash digest build rebuild stale fresh ' +
  'deploy release rollback migrate upgrade install configure compile link bundle package archive restore backup ' +
  'monitor alert notify escalate page incident postmortem runbook playbook checklist timeout retry backoff jitter ' +
  'shard replica leader follower quorum commit rebase merge branch tag revision patch diff apply verify sign ' +
  'encrypt decrypt compress decompress encode decode parse format render template parameter argument option flag'
).split(' ');

/** Reference files besides SKILL.md. */
const FILES = 4999;
const AREAS = ['guides', 'reference', 'runbooks', 'design', 'api'];

/** A linear congruential generator: deterministic pseudo-random integers. */
function generator(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
}

function sentence(next: (n: number) => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(VOCABULARY[next(VOCABULARY.length)] as string);
  const text = out.join(' ');
  return `${text[0]?.toUpperCase()}${text.slice(1)}.`;
}

function paragraph(next: (n: number) => number, sentences: number): string {
  return Array.from({ length: sentences }, () => sentence(next, 8 + next(10))).join(' ');
}

/** One block of section body: prose, a list, a table or a fenced block with `#` lines. */
function block(next: (n: number) => number, kind: number): string {
  switch (kind % 4) {
    case 0:
      return paragraph(next, 4 + next(3));
    case 1:
      return Array.from({ length: 3 + next(3) }, () => `- ${sentence(next, 5 + next(6))}`).join('\n');
    case 2:
      return [
        '| step | what | why |',
        '|---|---|---|',
        ...Array.from({ length: 3 }, (_, i) => `| ${i + 1} | ${sentence(next, 3)} | ${sentence(next, 5)} |`),
      ].join('\n');
    default:
      return [
        '```bash',
        `# ${sentence(next, 4)}`,
        `${VOCABULARY[next(VOCABULARY.length)]} --${VOCABULARY[next(VOCABULARY.length)]} ${next(1000)}`,
        '# not a heading: inside a fence',
        '```',
      ].join('\n');
  }
}

/** Reference file `n`: an H1, five H2 and fifteen H3 sections (21 in all), about 16 KB. */
export function referenceFile(n: number): string {
  const next = generator(n + 1);
  const parts = [`# ${sentence(next, 3).slice(0, -1)} ${n}`, '', paragraph(next, 3), ''];
  for (let h2 = 0; h2 < 5; h2++) {
    parts.push(`## ${sentence(next, 2).slice(0, -1)} ${n}.${h2}`, '', block(next, h2), '', paragraph(next, 3), '');
    for (let h3 = 0; h3 < 3; h3++) {
      parts.push(`### ${sentence(next, 3).slice(0, -1)} ${n}.${h2}.${h3}`, '', paragraph(next, 3), '', block(next, h2 + h3 + 1), '', paragraph(next, 3), '');
    }
  }
  return parts.join('\n');
}

const SKILL_MD = `---
name: big-skill
description: A generated handbook of 5,000 files for measuring build, search and outline at scale. Use when benchmarking.
version: 1.0.0
---
# Big skill

The handbook lives under references/, one topic per file.

## Layout

Areas: ${AREAS.join(', ')}.
`;

/** Writes the skill at `<parent>/big-skill`; returns its directory and its total size in bytes. */
export function writeBigSkill(parent: string): { dir: string; bytes: number; files: number } {
  const dir = join(parent, 'big-skill');
  for (const area of AREAS) mkdirSync(join(dir, 'references', area), { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), SKILL_MD);
  let bytes = Buffer.byteLength(SKILL_MD);
  for (let n = 0; n < FILES; n++) {
    const text = referenceFile(n);
    writeFileSync(join(dir, 'references', AREAS[n % AREAS.length] as string, `topic-${String(n).padStart(4, '0')}.md`), text);
    bytes += Buffer.byteLength(text);
  }
  return { dir, bytes, files: FILES + 1 };
}
