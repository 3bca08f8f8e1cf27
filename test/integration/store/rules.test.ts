import { describe, expect, it } from 'vitest';
import { addRule, listRules, removeRule } from '../../../src-main/core/store/rules.js';
import { useTempHomes } from './temp-home.js';

const homes = useTempHomes();

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
    const allow = addRule(db, '  tool:git/git_status ', 'allow', 2);
    expect(allow).toEqual({ id: allow.id, pattern: 'tool:git/git_status', effect: 'allow', createdAt: 2 });
    expect(listRules(db)).toEqual([deny, allow]);
    removeRule(db, deny.id);
    expect(listRules(db)).toEqual([allow]);
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
