import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import type { Rule, RuleEffect } from '../../../src-main/shared/runs.js';
import { compareSpecificity, governingRule, parseRuleEffect, parseRulePattern } from '../../../src-main/core/policy/rules.js';

function e609(fn: () => unknown): SkilltrayError {
  try {
    fn();
  } catch (error) {
    if (error instanceof SkilltrayError && error.code === 'E609') return error;
    throw error;
  }
  throw new Error('expected E609');
}

let nextId = 1;
const rule = (pattern: string, effect: RuleEffect, id = nextId++): Rule => ({ id, pattern, effect, createdAt: 0, pins: [] });

describe('parseRulePattern', () => {
  it.each<[string, string, string, boolean]>([
    ['skill:*', 'anything', 'any', true],
    ['skill:dangerous-*', 'dangerous-rm', 't', true],
    ['skill:dangerous-*', 'safe', 't', false],
    ['skill:dangerous-*', 'dangerous-', 't', true],
    ['skill:git', 'git', 'git_status', true],
    ['skill:git', 'gitx', 'git_status', false],
    ['skill:{git,npm}', 'npm', 'x', true],
    ['skill:{git,npm}', 'pnpm', 'x', false],
    ['skill:g?t', 'git', 'x', true],
    ['skill:[a-c]*', 'bzip', 'x', true],
    ['skill:[a-c]*', 'dzip', 'x', false],
    ['skill:!git', 'npm', 'x', true],
    ['skill:!git', 'git', 'x', false],
    ['tool:git/git_status', 'git', 'git_status', true],
    ['tool:git/git_status', 'git', 'git_diff', false],
    ['tool:git/git_status', 'gitx', 'git_status', false],
    ['tool:git/*', 'git', 'git_diff', true],
    ['tool:git/*', 'npm', 'install', false],
    ['  skill:git  ', 'git', 'x', true],
  ])('%s on %s/%s → %s', (pattern, skill, tool, matches) => {
    expect(parseRulePattern(pattern).matches(skill, tool)).toBe(matches);
  });

  it('canonicalises by trimming', () => {
    expect(parseRulePattern('\tskill:git \n').pattern).toBe('skill:git');
  });

  it.each([
    ['', "starts with 'skill:' or 'tool:'"],
    ['git', "starts with 'skill:' or 'tool:'"],
    ['Skill:git', "starts with 'skill:' or 'tool:'"],
    ['bash:rm', "starts with 'skill:' or 'tool:'"],
    ['skill:', 'empty'],
    ['skill:a b', 'whitespace'],
    ['skill:a/b', "'/'"],
    ['skill:a\u0000', 'control'],
    ['tool:skill_exec', 'skill:*'],
    ['tool:/x', 'skill is empty'],
    ['tool:git/', 'tool is empty'],
    ['tool:git/a/b', "'/'"],
    ['tool:git-*/x', 'one skill exactly'],
    ['tool:*/*', 'one skill exactly'],
    ['tool:git/git_*', 'not a glob'],
    [`skill:${'*a'.repeat(40_000)}`, 'does not compile'],
  ])('rejects %j with E609 (%s)', (pattern, why) => {
    const error = e609(() => parseRulePattern(pattern));
    expect(error.message).toContain(why);
    expect(error.message).toContain('write skill:<glob>, tool:<skill>/<tool> or tool:<skill>/*');
    expect(error.details).toEqual({ pattern: pattern.trim() });
  });

  it('throws nothing but E609 for arbitrary input, and accepted patterns re-parse to themselves', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => `skill:${s}`),
          fc.string().map((s) => `tool:${s}`),
        ),
        (input) => {
          let parsed;
          try {
            parsed = parseRulePattern(input);
          } catch (error) {
            expect(error).toBeInstanceOf(SkilltrayError);
            expect((error as SkilltrayError).code).toBe('E609');
            return;
          }
          expect(parseRulePattern(parsed.pattern).pattern).toBe(parsed.pattern);
          expect(parsed.matches('some-skill', 'some_tool')).toBeTypeOf('boolean');
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('matches skill globs exactly as picomatch does', () => {
    const name = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,12}$/);
    const glob = fc.stringMatching(/^[a-z0-9*?{},-]{1,8}$/);
    fc.assert(
      fc.property(glob, name, (g, skill) => {
        let parsed;
        try {
          parsed = parseRulePattern(`skill:${g}`);
        } catch {
          return;
        }
        expect(parsed.matches(skill, 't')).toBe(picomatch(g, { dot: true })(skill));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('specificity', () => {
  const ordered = ['skill:*', 'skill:d*', 'skill:dangerous-*', 'skill:dangerous-rm', 'tool:dangerous-rm/*', 'tool:dangerous-rm/run'];

  it('ranks tool:s/t > tool:s/* > skill:<exact> > skill:<longer prefix glob> > skill:<glob> > skill:*', () => {
    const specs = ordered.map((p) => parseRulePattern(p).specificity);
    for (let i = 1; i < specs.length; i++) {
      expect(compareSpecificity(specs[i]!, specs[i - 1]!), `${ordered[i]} vs ${ordered[i - 1]}`).toBeGreaterThan(0);
      expect(compareSpecificity(specs[i - 1]!, specs[i]!)).toBeLessThan(0);
    }
    expect(compareSpecificity(parseRulePattern('skill:a*').specificity, parseRulePattern('skill:{a,b}').specificity)).toBeGreaterThan(0);
    expect(compareSpecificity(parseRulePattern('skill:*-rm').specificity, parseRulePattern('skill:*').specificity)).toBeGreaterThan(0);
  });

  it('lets the most specific matching rule govern, in every order the rules are listed', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(ordered, { minLength: 1 }), fc.constantFrom<RuleEffect>('allow', 'deny'), (patterns, firstEffect) => {
        const rules = patterns.map((p, i) => rule(p, i % 2 === 0 ? firstEffect : firstEffect === 'allow' ? 'deny' : 'allow', i + 1));
        const expected = [...ordered].reverse().find((p) => patterns.includes(p));
        expect(governingRule(rules, 'dangerous-rm', 'run')?.pattern).toBe(expected);
      }),
    );
  });

  it.each<[string[], string, string, string | null]>([
    [['skill:*=deny', 'tool:git/git_status=allow'], 'git', 'git_status', 'tool:git/git_status=allow'],
    [['skill:*=deny', 'tool:git/git_status=allow'], 'git', 'git_diff', 'skill:*=deny'],
    [['skill:*=allow', 'skill:dangerous-*=deny'], 'dangerous-rm', 'x', 'skill:dangerous-*=deny'],
    [['skill:*=allow', 'skill:dangerous-*=deny'], 'git', 'x', 'skill:*=allow'],
    [['skill:dangerous-*=deny', 'skill:dangerous-rm=allow'], 'dangerous-rm', 'x', 'skill:dangerous-rm=allow'],
    [['tool:git/*=deny', 'skill:git=allow'], 'git', 'x', 'tool:git/*=deny'],
    [['skill:git=allow'], 'npm', 'x', null],
    [[], 'git', 'x', null],
  ])('%j governs %s/%s by %s', (specs, skill, tool, expected) => {
    const rules = specs.map((s) => {
      const [pattern, effect] = s.split('=') as [string, RuleEffect];
      return rule(pattern, effect);
    });
    const got = governingRule(rules, skill, tool);
    expect(got === null ? null : `${got.pattern}=${got.effect}`).toBe(expected);
  });

  it('prefers deny at equal specificity, whatever the order, then the oldest rule', () => {
    const allow = rule('skill:git', 'allow', 1);
    const deny = rule('skill:git', 'deny', 2);
    expect(governingRule([allow, deny], 'git', 't')).toBe(deny);
    expect(governingRule([deny, allow], 'git', 't')).toBe(deny);
    const globAllow = rule('skill:dan*', 'allow', 3);
    const globDeny = rule('skill:dan?er*', 'deny', 4);
    expect(governingRule([globAllow, globDeny], 'danger', 't')).toBe(globDeny);
    const older = rule('skill:{a,b}', 'deny', 5);
    const newer = rule('skill:{b,c}', 'deny', 6);
    expect(governingRule([newer, older], 'b', 't')).toBe(older);
  });
});

describe('parseRuleEffect', () => {
  it('accepts allow and deny only', () => {
    expect(parseRuleEffect('allow')).toBe('allow');
    expect(parseRuleEffect('deny')).toBe('deny');
    expect(e609(() => parseRuleEffect('Allow')).message).toBe("invalid rule effect 'Allow': write allow or deny");
  });
});
