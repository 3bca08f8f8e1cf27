/**
 * Stored permission rules. Patterns are validated (and trimmed) by policy before they are saved,
 * so everything in the table parses; adding a rule that already exists returns the existing one,
 * pinned anew. An allow rule keeps the skills it allows as they were when it was made (its pins,
 * JSON); a rule from before pins has none until it is first read with the skills at hand.
 */
import { policyErrors } from '../../shared/error-messages/policy.js';
import type { Rule, RuleEffect, RulePin } from '../../shared/runs.js';
import { parseRuleEffect, parseRulePattern } from '../policy/rules.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';

interface RuleRow {
  id: number;
  pattern: string;
  effect: RuleEffect;
  created_at: number;
  pins: string | null;
}

const COLUMNS = 'id, pattern, effect, created_at, pins';

function toRule(row: RuleRow): Rule {
  return {
    id: row.id,
    pattern: row.pattern,
    effect: row.effect,
    createdAt: row.created_at,
    pins: row.pins === null ? null : (JSON.parse(row.pins) as RulePin[]),
  };
}

/**
 * Adds a rule (E609 for an invalid pattern or effect); an identical rule is returned as it is, with
 * `pins` (the skills an allow rule covers now; a deny rule covers every skill its pattern names and
 * keeps none) as its pins from now on.
 */
export function addRule(db: StateDb, pattern: string, effect: string, now: number = Date.now(), pins: readonly RulePin[] = []): Rule {
  const canonical = parseRulePattern(pattern).pattern;
  const checkedEffect = parseRuleEffect(effect);
  const pinned = JSON.stringify(checkedEffect === 'allow' ? pins : []);
  return db.transaction(() => {
    prepared(db, 'INSERT OR IGNORE INTO rules (pattern, effect, created_at, pins) VALUES (?, ?, ?, ?)').run(canonical, checkedEffect, now, pinned);
    prepared(db, 'UPDATE rules SET pins = ? WHERE pattern = ? AND effect = ?').run(pinned, canonical, checkedEffect);
    const row = prepared<[string, string], RuleRow>(db, `SELECT ${COLUMNS} FROM rules WHERE pattern = ? AND effect = ?`).get(canonical, checkedEffect);
    return toRule(row as RuleRow);
  })();
}

/** Removes a rule; E614 when there is none with that id. */
export function removeRule(db: StateDb, id: number): void {
  const info = prepared(db, 'DELETE FROM rules WHERE id = ?').run(id);
  if (info.changes === 0) throw policyErrors.ruleNotFound(id);
}

/**
 * Every rule, oldest first. A rule from before pins is pinned first when `legacyPins` is given (the
 * skills it covers now whose identity is beyond doubt: policy/pins.ts), once and for good.
 */
export function listRules(db: StateDb, legacyPins?: (rule: Rule) => RulePin[]): Rule[] {
  const rules = prepared<[], RuleRow>(db, `SELECT ${COLUMNS} FROM rules ORDER BY id`).all().map(toRule);
  if (legacyPins === undefined || rules.every((rule) => rule.pins !== null)) return rules;
  return db.transaction(() =>
    rules.map((rule) => {
      if (rule.pins !== null) return rule;
      const pins = rule.effect === 'allow' ? legacyPins(rule) : [];
      prepared(db, 'UPDATE rules SET pins = ? WHERE id = ? AND pins IS NULL').run(JSON.stringify(pins), rule.id);
      return { ...rule, pins };
    }),
  )();
}
