/**
 * What the search over skills finds and in what order (issue 40): a skill's description is indexed,
 * modal words count when a query is about them, scores follow the order shown, a query of many
 * words ranks the rows holding more of them, broken skills come last, and a query that finds
 * nothing gets the words it probably meant.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SkillCatalog, closestWord, followingRanks, type CatalogSkill } from '../../../src-main/core/search/catalog.js';
import { catalogMatch } from '../../../src-main/core/search/catalog-sql.js';
import { manifestHash, walkSkill } from '../../../src-main/core/skills/walk.js';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';

function skill(parent: string, name: string, description: string, body: string): CatalogSkill {
  const dir = makeSkill(parent, name, { 'SKILL.md': `---\nname: ${name}\ndescription: ${description}\n---\n${body}` });
  return { name, dir, hash: manifestHash(walkSkill(dir).files), description };
}

/** Skills about other things, so that word weights are those of a library, not of two skills. */
function fillers(parent: string): CatalogSkill[] {
  const topics = ['cooking pasta', 'tuning guitars', 'painting walls', 'baking bread', 'pruning roses', 'fixing bikes', 'brewing tea', 'knitting socks'];
  return topics.map((topic, i) =>
    skill(
      parent,
      `filler-${i}`,
      `Help with ${topic}.`,
      `# ${topic}\n\nNotes on ${topic}: what it takes and when to do it, and how a person can tell it is done.\n`,
    ),
  );
}

/** The entry with its tools as the loader reads them. */
function withTools(entry: CatalogSkill): CatalogSkill {
  const parsed = parseSkill(entry.dir, { path: join(entry.dir, '..'), kind: 'env', trust: 'user', syntax: 'angle' });
  return { ...entry, commands: { syntax: parsed.syntax, tools: parsed.tools } };
}

function catalogOf(...skills: CatalogSkill[]): SkillCatalog {
  const catalog = SkillCatalog.open(tempDir());
  catalog.sync(skills);
  return catalog;
}

describe('a skill’s description is searched', () => {
  it('a word found only in the description finds the skill, as a hit on its description', () => {
    const roots = tempDir();
    const catalog = catalogOf(
      ...fillers(roots),
      skill(roots, 'http-client', 'Call flaky services with retries and exponential backoff.', '# Client\n\nSend requests and read replies.\n'),
    );
    expect(catalog.search('backoff').results).toMatchObject([
      { skill: 'http-client', file: 'SKILL.md', section: '', about: true, snippet: 'Call flaky services with retries and exponential [MATCH]backoff[/MATCH].' },
    ]);
    catalog.close();
  });

  it('a run of Chinese found only in the description finds the skill', () => {
    const roots = tempDir();
    const catalog = catalogOf(...fillers(roots), skill(roots, 'comics', '把文章画成知识漫画。', '# Comics\n\nDraw panels.\n'));
    expect(catalog.search('知识漫画').results.map((hit) => [hit.skill, hit.about])).toEqual([['comics', true]]);
    expect(catalog.search('漫画').results.map((hit) => hit.skill)).toEqual(['comics']);
    catalog.close();
  });

  it('a skill whose description matches opens where it answers: its section, ranked as its description', () => {
    const roots = tempDir();
    const catalog = catalogOf(
      ...fillers(roots),
      skill(
        roots,
        'system',
        'Answers about the machine: whether a disk is full, what runs.',
        '# System\n\n## disk_usage\n\nSize and free space of each disk.\n',
      ),
      skill(
        roots,
        'notes',
        'Keeping notes.',
        '# Notes\n\nA full notebook is a good notebook; disk or paper.\n\n## More\n\nMore and more words about notes and notebooks.\n',
      ),
    );
    expect(catalog.search('how full is my disk').results[0]).toMatchObject({ skill: 'system', section: 'disk_usage', about: false });
    catalog.close();
  });
});

describe('modal words', () => {
  it('count when the query is about them (two or more, or one in capitals), and are left out when it is not', () => {
    expect(catalogMatch('MUST gates SHOULD gates', false).required).toBe('"must" "gates" "should"');
    expect(catalogMatch('difference between CAN and WILL', false).required).toBe('"difference" "between" "can" "will"');
    expect(catalogMatch('what can and will a spec promise', false).required).toBe('"can" "will" "spec" "promise"');
    expect(catalogMatch('how can I deploy', false)).toMatchObject({ required: '"deploy"', common: '"how" OR "can" OR "i"' });
    const roots = tempDir();
    const catalog = catalogOf(
      ...fillers(roots),
      skill(roots, 'spec-words', 'Words of a specification.', '# Requirement levels\n\nWILL marks a commitment; CAN marks a capability.\n'),
    );
    expect(catalog.search('WILL vs CAN').results[0]?.skill).toBe('spec-words');
    catalog.close();
  });
});

describe('scores follow the order shown', () => {
  it('the first hit scores 1 and no score rises down the list, though a heading that says the query moves its section up', () => {
    const roots = tempDir();
    const long = Array.from({ length: 40 }, (_, i) => `Step ${i} of the release checklist for the team.`).join('\n');
    const catalog = catalogOf(
      ...fillers(roots),
      skill(roots, 'ship', 'Shipping.', `# Deploy\n\n${long}\n`),
      skill(roots, 'ops', 'Operations.', '# Operations\n\nDeploy, then deploy again.\n'),
    );
    const results = catalog.search('deploy').results;
    // "Deploy" is the ship skill's own heading: it comes first, though the short ops text matches more strongly.
    expect(results.map((hit) => hit.skill)).toEqual(['ship', 'ops']);
    expect(results.map((hit) => hit.score)).toEqual([1, 1]);
    catalog.close();
  });

  it("a heading holding the query's words as its stems or as typed moves its section up in one skill's search too", () => {
    const roots = tempDir();
    const long = Array.from({ length: 40 }, (_, i) => `Step ${i} of the release checklist for the team.`).join('\n');
    const catalog = catalogOf(
      ...fillers(roots),
      skill(
        roots,
        'ship',
        'Shipping.',
        `# Deploying releases\n\n${long}\n\n# Rollback\n\nDeploying the releases before, then deploying them again: deploying releases.\n`,
      ),
    );
    // The headings are checked with the catalog's own tokenizers: "Deploying" holds the stem of "deploy", and starts as
    // "deployi" being typed does (the stemmed index holds "deploi", the unstemmed one "deploying").
    for (const search of [catalog.search('deploy', { skill: 'ship' }), catalog.search('releases deployi', { skill: 'ship', prefix: true })]) {
      expect(search.results.map((hit) => hit.section)).toEqual(['Deploying releases', 'Rollback']);
    }
    // A heading holding only some of the words is not one that says the query.
    expect(catalog.search('deploy rollback', { skill: 'ship' }).results[0]?.section).toBe('Rollback');
    catalog.close();
  });

  it('followingRanks never rises and starts at 1 (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -50, max: -0.001, noNaN: true }), { minLength: 1, maxLength: 30 }), (ranks) => {
        const scores = followingRanks(ranks);
        expect(scores[0]).toBe(1);
        for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1] as number);
        for (const score of scores) expect(score).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

describe('a query of many words', () => {
  it('ranks the short section holding most of them above a long chapter that happens to hold them all', () => {
    const roots = tempDir();
    const filler = Array.from({ length: 80 }, (_, i) => `Paragraph ${i} is about the weather, the garden and the roads of the town.`);
    const words = ['stop signs', 'keys to the house', 'github stars', 'api design', 'leaked pipes', 'what got pushed aside', 'getting there'];
    const chapter = filler.map((line, i) => (i % 13 === 0 ? `${line} It mentions ${words[i / 13] ?? ''}.` : line)).join('\n\n');
    const catalog = catalogOf(
      ...fillers(roots),
      skill(
        roots,
        'secret-scanning',
        'Keep secrets out of repositories.',
        '# Push protection\n\nBlock pushes that hold leaked api keys before they reach github.\n',
      ),
      skill(roots, 'handbook', 'A long handbook.', `# Handbook\n\n${chapter}\n`),
    );
    const found = catalog.search('stop leaked api keys getting pushed to github').results.map((hit) => hit.skill);
    expect(found[0]).toBe('secret-scanning');
    expect(found).toContain('handbook');
    catalog.close();
  });
});

describe('broken skills', () => {
  it('their tools come after every other hit, whatever their rank; their sections keep their place', () => {
    const roots = tempDir();
    const tool = '## Tools\n\n### greet\n\nGreet greet greet someone.\n\n#### Command\n\n```\necho hello\n```\n';
    const catalog = catalogOf(
      ...fillers(roots),
      withTools(skill(roots, 'hello', 'Greets.', `# Hello\n\n${tool}`)),
      skill(roots, 'welcome', 'Welcomes.', '# Welcome\n\nSay hello and greet a guest at the door of the house.\n'),
      skill(roots, 'notes', 'Notes.', '# Greet\n\nGreet greet greet: notes on greeting.\n'),
    );
    const order = (broken?: (name: string) => boolean) =>
      catalog.search('greet', broken === undefined ? {} : { broken }).results.map((hit) => `${hit.skill}${hit.tool === null ? '' : `/${hit.tool}`}`);
    expect(order()[0]).toBe('hello/greet');
    expect(order((name) => name === 'hello').at(-1)).toBe('hello/greet');
    expect(order((name) => name === 'notes')[0]).toBe('hello/greet');
    expect(order((name) => name === 'notes')).toContain('notes');
    catalog.close();
  });
});

describe('a search that finds nothing', () => {
  it('suggests the query with each unknown word replaced by the closest indexed word, when that finds something', () => {
    const roots = tempDir();
    const catalog = catalogOf(...fillers(roots), skill(roots, 'gates', 'Release gates.', '# Gates\n\nEvery gate blocks the release until it passes.\n'));
    expect(catalog.search('gatse relaese').results).toEqual([]);
    expect(catalog.suggest('gatse relaese')).toBe('gates release');
    expect(catalog.suggest('xyzzy')).toBeNull();
    // Scoped to a skill, a suggestion must find something there.
    expect(catalog.suggest('gatse', { skill: 'filler-0' })).toBeNull();
    expect(catalog.suggest('gatse', { skill: 'gates' })).toBe('gates');
    catalog.close();
  });

  it('closestWord takes the fewest edits, then the most common word, among words sharing one of the first two letters', () => {
    const words = [
      { term: 'deploy', doc: 5 },
      { term: 'deplore', doc: 50 },
      { term: 'gates', doc: 5 },
      { term: 'gales', doc: 50 },
    ];
    const starting = (prefix: string) => words.filter((w) => w.term.startsWith(prefix));
    expect(closestWord('delpoy', starting)).toBe('deploy');
    // A typo in the first letter: the words starting with the second are asked too.
    expect(closestWord('edploy', starting)).toBe('deploy');
    expect(closestWord('gaxes', starting)).toBe('gales');
    expect(closestWord('zzzzzz', starting)).toBeNull();
  });
});
