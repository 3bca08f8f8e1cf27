import { describe, expect, it } from 'vitest';
import { addRule, listRules, removeRule } from '../../../src-main/core/store/rules.js';
import type { RulePin } from '../../../src-main/shared/runs.js';
import { useTempHomes } from './temp-home.js';

const homes = useTempHomes();
const pin: RulePin = {
  skill: 'git',
  rootKind: 'bundled',
  path: '/app/skills/git',
  trust: 'bundled',
  profile: { name: 'read-only', network: false, hosts: [] },
};

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe('stored rules', () => {
  it('adds, lists oldest first and removes rules', () => {
    const db = homes.fresh();
    const deny = addRule(db, 'skill:dangerous-*', 'deny', 1);
    const allow = addRule(db, '  tool:git/git_status ', 'allow', 2, [pin]);
    expect(allow).toEqual({ id: allow.id, pattern: 'tool:git/git_status', effect: 'allow', createdAt: 2, pins: [pin] });
    expect(deny.pins).toEqual([]);
    expect(listRules(db)).toEqual([deny, allow]);
    removeRule(db, deny.id);
    expect(listRules(db)).toEqual([allow]);
  });

  it('adding an allow rule again pins it to the skills it covers now; a deny rule keeps no pins', () => {
    const db = homes.fresh();
    const first = addRule(db, 'tool:git/git_status', 'allow', 1, [pin]);
    const moved = { ...pin, rootKind: 'home', path: '/h/skills/git', trust: 'user' } as const;
    expect(addRule(db, 'tool:git/git_status', 'allow', 5, [moved])).toEqual({ ...first, pins: [moved] });
    expect(addRule(db, 'skill:git', 'deny', 6, [pin]).pins).toEqual([]);
  });

  it('pins a rule from before pins once, with the skills it covers then; a deny rule gets none', () => {
    const db = homes.fresh();
    db.prepare("INSERT INTO rules (pattern, effect, created_at) VALUES ('tool:git/git_status', 'allow', 1), ('skill:x*', 'deny', 1)").run();
    expect(listRules(db).map((r) => r.pins)).toEqual([null, null]);
    let asked = 0;
    const adopt = () => {
      asked++;
      return [pin];
    };
    expect(listRules(db, adopt).map((r) => r.pins)).toEqual([[pin], []]);
    expect(listRules(db, adopt).map((r) => r.pins)).toEqual([[pin], []]);
    expect(asked).toBe(1);
  });

  it('returns the existing rule when the same pattern and effect are added again', () => {
    const db = homes.fresh();
    const first = addRule(db, 'skill:*', 'deny', 1);
    expect(addRule(db, 'skill:*', 'deny', 5)).toEqual(first);
    const allow = addRule(db, 'skill:*', 'allow', 6);
    expect(allow.id).not.toBe(first.id);
    expect(listRules(db)).toHaveLength(2);
  });

  it('validates with policy before saving: E609 for a bad pattern or effect, nothing stored', () => {
    const db = homes.fresh();
    expect(codeOf(() => addRule(db, 'bash:rm', 'deny'))).toBe('E609');
    expect(codeOf(() => addRule(db, 'tool:skill_exec', 'deny'))).toBe('E609');
    expect(codeOf(() => addRule(db, 'skill:*', 'maybe'))).toBe('E609');
    expect(listRules(db)).toEqual([]);
  });

  it('reports removing an unknown rule as E614', () => {
    const db = homes.fresh();
    expect(codeOf(() => removeRule(db, 42))).toBe('E614');
  });
});
