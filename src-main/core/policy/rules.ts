/**
 * Permission rules in Kode's R7 syntax: `skill:<glob>` covers skills by name (picomatch glob),
 * `tool:<skill>/<tool>` one tool and `tool:<skill>/*` every tool of one skill. When several rules
 * match, the most specific wins, so a narrow allow can carve an exception out of a broad deny and
 * the reverse; at equal specificity deny wins.
 */
import type Picomatch from 'picomatch';
import { lazyRequire } from '../lazy-require.js';
import { policyErrors } from '../../shared/error-messages/policy.js';
import { RULE_EFFECTS, type RuleEffect, type Rule } from '../../shared/runs.js';

const picomatch = lazyRequire<typeof Picomatch>('picomatch');

/**
 * How specific a pattern is, compared as a tuple: `tier` first, then `prefix` (the length of the
 * literal text before a glob's first wildcard). Tiers: 4 `tool:s/t`, 3 `tool:s/*`, 2 `skill:<exact>`,
 * 1 `skill:<glob>`, 0 `skill:*`.
 */
export interface Specificity {
  tier: 0 | 1 | 2 | 3 | 4;
  prefix: number;
}

/** A validated pattern, ready to match. */
export interface RulePattern {
  /** The pattern in canonical form (trimmed). */
  pattern: string;
  specificity: Specificity;
  matches: (skill: string, tool: string) => boolean;
}

// Characters that make a name a glob in picomatch (brackets, braces, extglobs, negation, escapes).
const GLOB_CHARS = /[*?[\]{}()!+@\\]/;
// Whitespace, control characters and the path separator never occur in a skill or tool name.
const NOT_IN_NAMES = /[\s\p{Cc}/]/u;

function checkName(pattern: string, what: string, name: string): void {
  if (name === '') throw policyErrors.invalidRule(pattern, `the ${what} is empty`);
  if (NOT_IN_NAMES.test(name)) throw policyErrors.invalidRule(pattern, `the ${what} contains whitespace, a control character or '/'`);
}

function parseSkillGlob(pattern: string, glob: string): RulePattern {
  checkName(pattern, 'skill glob', glob);
  if (glob === '*') return { pattern, specificity: { tier: 0, prefix: 0 }, matches: () => true };
  const wildcard = glob.search(GLOB_CHARS);
  if (wildcard === -1) {
    return { pattern, specificity: { tier: 2, prefix: glob.length }, matches: (skill) => skill === glob };
  }
  let isMatch: (name: string) => boolean;
  try {
    isMatch = picomatch()(glob, { dot: true });
  } catch (error) {
    throw policyErrors.invalidRule(pattern, `the glob does not compile (${(error as Error).message})`);
  }
  return { pattern, specificity: { tier: 1, prefix: wildcard }, matches: (skill) => isMatch(skill) };
}

function parseToolTarget(pattern: string, target: string): RulePattern {
  const slash = target.indexOf('/');
  if (slash === -1) throw policyErrors.invalidRule(pattern, "a tool: pattern names <skill>/<tool> (Kode's legacy tool:skill_exec is skill:*)");
  const skill = target.slice(0, slash);
  const tool = target.slice(slash + 1);
  checkName(pattern, 'skill', skill);
  checkName(pattern, 'tool', tool);
  if (GLOB_CHARS.test(skill)) throw policyErrors.invalidRule(pattern, 'a tool: pattern names one skill exactly; use skill:<glob> for a family');
  if (tool === '*') return { pattern, specificity: { tier: 3, prefix: skill.length }, matches: (s) => s === skill };
  if (GLOB_CHARS.test(tool)) throw policyErrors.invalidRule(pattern, "the tool is a name or '*', not a glob");
  return { pattern, specificity: { tier: 4, prefix: skill.length + 1 + tool.length }, matches: (s, t) => s === skill && t === tool };
}

function parse(pattern: string): RulePattern {
  if (pattern.startsWith('skill:')) return parseSkillGlob(pattern, pattern.slice('skill:'.length));
  if (pattern.startsWith('tool:')) return parseToolTarget(pattern, pattern.slice('tool:'.length));
  throw policyErrors.invalidRule(pattern, "a pattern starts with 'skill:' or 'tool:'");
}

// Every decision matches every rule; compiling a glob costs far more than matching one.
const compiled = new Map<string, RulePattern>();
const MAX_COMPILED = 1024;

/** Parses and validates a pattern; anything else is E609 with a sentence saying what is wrong. */
export function parseRulePattern(input: string): RulePattern {
  const pattern = input.trim();
  const known = compiled.get(pattern);
  if (known !== undefined) return known;
  const parsed = parse(pattern);
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(pattern, parsed);
  return parsed;
}

/** Checks a rule's effect; E609 for anything but allow or deny. */
export function parseRuleEffect(input: string): RuleEffect {
  if ((RULE_EFFECTS as readonly string[]).includes(input)) return input as RuleEffect;
  throw policyErrors.invalidRuleEffect(input);
}

/** Orders specificities: negative when `a` is less specific than `b`. */
export function compareSpecificity(a: Specificity, b: Specificity): number {
  return a.tier - b.tier || a.prefix - b.prefix;
}

/**
 * The rule that governs `skill/tool`: the most specific match, deny before allow at equal
 * specificity, then the oldest rule (lowest id). Null when none matches.
 */
export function governingRule(rules: readonly Rule[], skill: string, tool: string): Rule | null {
  let best: { rule: Rule; specificity: Specificity } | null = null;
  for (const rule of rules) {
    const parsed = parseRulePattern(rule.pattern);
    if (!parsed.matches(skill, tool)) continue;
    if (best === null) {
      best = { rule, specificity: parsed.specificity };
      continue;
    }
    const order =
      compareSpecificity(parsed.specificity, best.specificity) ||
      (rule.effect === best.rule.effect ? 0 : rule.effect === 'deny' ? 1 : -1) ||
      best.rule.id - rule.id;
    if (order > 0) best = { rule, specificity: parsed.specificity };
  }
  return best?.rule ?? null;
}
