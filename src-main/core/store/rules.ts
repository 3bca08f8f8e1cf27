/**
 * Stored permission rules. Patterns are validated (and trimmed) by policy before they are saved,
 * so everything in the table parses; adding a rule that already exists returns the existing one.
 */
import { SkilltrayError } from '../errors.js';
import type { Rule, RuleEffect } from '../../shared/runs.js';
import { parseRuleEffect, parseRulePattern } from '../policy/rules.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';

interface RuleRow {
  id: number;
  pattern: string;
  effect: RuleEffect;
  created_at: number;
}

function toRule(row: RuleRow): Rule {
  return { id: row.id, pattern: row.pattern, effect: row.effect, createdAt: row.created_at };
}

/** Adds a rule (E609 for an invalid pattern or effect); an identical rule is returned as it is. */
export function addRule(db: StateDb, pattern: string, effect: string, now: number = Date.now()): Rule {
  const canonical = parseRulePattern(pattern).pattern;
  const checkedEffect = parseRuleEffect(effect);
  return db.transaction(() => {
    prepared(db, 'INSERT OR IGNORE INTO rules (pattern, effect, created_at) VALUES (?, ?, ?)').run(canonical, checkedEffect, now);
    const row = prepared<[string, string], RuleRow>(db, 'SELECT id, pattern, effect, created_at FROM rules WHERE pattern = ? AND effect = ?')
      .get(canonical, checkedEffect);
    return toRule(row as RuleRow);
  })();
}

/** Removes a rule; E614 when there is none with that id. */
export function removeRule(db: StateDb, id: number): void {
  const info = prepared(db, 'DELETE FROM rules WHERE id = ?').run(id);
  if (info.changes === 0) throw new SkilltrayError('E614', `no rule with id ${id}`, { details: { id } });
}

/** Every rule, oldest first. */
export function listRules(db: StateDb): Rule[] {
  return prepared<[], RuleRow>(db, 'SELECT id, pattern, effect, created_at FROM rules ORDER BY id').all().map(toRule);
}
