import { afterEach, describe, expect, it } from 'vitest';
import { DiscoverIndex } from '../../../src-main/core/agent/discover-index.js';
import { intentTerms } from '../../../src-main/core/agent/intent-terms.js';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import type { SkillRoot } from '../../../src-main/shared/model.js';
import { skillMd, tempDir, writeSkill } from '../../support/temp.js';

const indexes: DiscoverIndex[] = [];
afterEach(() => {
  for (const index of indexes.splice(0)) index.close();
});

/** An index over skills made of a name, a description and a body. */
function indexOf(skills: [name: string, description: string, body?: string][]): DiscoverIndex {
  const root = tempDir();
  const userRoot: SkillRoot = { path: root, kind: 'env', trust: 'user', syntax: 'angle' };
  const index = new DiscoverIndex(
    skills.map(([name, description, body]) => parseSkill(writeSkill(root, name, skillMd({ name, description }, body ?? '')), userRoot)),
  );
  indexes.push(index);
  return index;
}

const at = (index: DiscoverIndex, name: string): number => index.skills.findIndex((s) => s.name === name);

describe('discover index', () => {
  it('strength: the skill whose text holds the words most is 1, the others a part of it, one holding none 0', () => {
    const index = indexOf([
      ['keeper', 'Backup your files.', 'Backup them daily; a backup a day keeps loss away.'],
      ['copier', 'Backup your files.', 'Copy files to a disk, then check the copies.'],
      ['camera', 'Take a snapshot.'],
    ]);
    const hits = intentTerms('backup files', (form) => index.knows(form)).map((term) => index.hits(term));
    const strength = index.strengths(hits)!;
    expect(strength[at(index, 'keeper')]).toBe(1);
    expect(strength[at(index, 'copier')]).toBeGreaterThan(0);
    expect(strength[at(index, 'copier')]).toBeLessThan(1);
    expect(strength[at(index, 'camera')]).toBe(0);
    // An intent with no words (only an unspaced run) has no strength to measure.
    expect(index.strengths(intentTerms('会议记录', () => false).map((term) => index.hits(term)))).toBeNull();
  });

  it('strength: a word weighs by the field that holds it, as in the share: once in the description says more than once in the body', () => {
    // The same number of words each, the word once: unweighted, BM25 could not tell them apart.
    const index = indexOf([
      ['named', 'Backup your files.', 'Copy them daily to the disk.'],
      ['passing', 'Copy your files.', 'Backup them daily to the disk.'],
      ['camera', 'Take a snapshot.'],
    ]);
    const strength = index.strengths(intentTerms('backup', (form) => index.knows(form)).map((term) => index.hits(term)))!;
    expect(strength[at(index, 'named')]).toBe(1);
    expect(strength[at(index, 'passing')]).toBeGreaterThan(0);
    expect(strength[at(index, 'passing')]).toBeLessThan(0.5);
  });

  it('does not read a template many bodies share: its words neither match each copy nor look common', () => {
    const template = (own: string): string =>
      `${own}\n\n## Setup\n\nConnect once with your account; the service keeps the raw tokens so you never handle them.`;
    const index = indexOf([
      ...['tickets', 'invoices', 'photos', 'flights', 'weather', 'papers'].map((topic): [string, string, string] => [
        `${topic}-service`,
        `Work with ${topic}.`,
        template(`List and read ${topic}.`),
      ]),
      ['context-trimmer', 'Keep a chat within its limit.', 'Count the tokens of each message and trim the oldest tokens first.'],
    ]);
    const [tokens] = intentTerms('tokens', (form) => index.knows(form)).map((term) => index.hits(term));
    // Only the skill whose own text speaks of tokens holds the word; the template's copies do not.
    expect(tokens!.holders.map((skill) => index.skills[skill]!.name)).toEqual(['context-trimmer']);
    // As rare as a word held by one skill: ln(1 + 7 / 1).
    expect(tokens!.weight).toBeCloseTo(Math.log(8), 5);
    // What each copy says of itself is still read.
    const [photos] = intentTerms('photos', (form) => index.knows(form)).map((term) => index.hits(term));
    expect(photos!.holders.map((skill) => index.skills[skill]!.name)).toEqual(['photos-service']);
  });

  it('is used again for the same skills, rebuilt for others', () => {
    const index = indexOf([['fixer', 'Fix failing tests.']]);
    expect(index.reuseFor([...index.skills])).toBe(true);
    expect(index.reuseFor([{ ...index.skills[0]!, hash: 'changed' }])).toBe(false);
    expect(index.reuseFor([])).toBe(false);
  });
});
