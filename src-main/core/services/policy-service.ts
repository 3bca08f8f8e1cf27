/**
 * What the person decided about runs ahead of time: allow and deny rules, remembered approvals, and
 * which skills run without a sandbox.
 */
import type { ServerEvent } from '../../shared/contract.js';
import type { Remembered, Rule, SandboxStatus } from '../../shared/runs.js';
import type { SkillLibrary } from '../library.js';
import { pinsFor } from '../policy/pins.js';
import type { Sandbox } from '../process/sandbox/sandbox.js';
import { rulesInForce, runProfile } from '../runs/prepare-run.js';
import { listRemembered, revoke } from '../store/approvals.js';
import { addRule, removeRule } from '../store/rules.js';
import type { StateDb } from '../store/state-db.js';
import { listUnsandboxed, setSandboxed } from '../store/unsandboxed.js';
import { policyErrors } from '../../shared/error-messages/policy.js';

export interface PolicyServiceDeps {
  library: SkillLibrary;
  sandbox: Sandbox;
  session: string;
  db(): StateDb;
  emit(event: ServerEvent): void;
}

export class PolicyService {
  constructor(private readonly deps: PolicyServiceDeps) {}

  /** The rules, each allow rule with the skills it covers (a rule from before pins is pinned first: docs/policy.md). */
  rules(): Rule[] {
    return rulesInForce(this.deps.db(), this.deps.library.registry);
  }

  /**
   * Adds an allow or deny rule (`skill:<glob>`, `skill:*`, `tool:<skill>/<tool>`). An allow rule is
   * pinned to the loaded skills it covers as they are now (who each is, and its sandbox profile);
   * one that covers none is E625.
   */
  addRule(pattern: string, effect: string): Rule {
    const db = this.deps.db();
    const pins = effect === 'allow' ? pinsFor(pattern, this.deps.library.registry.list(), (skill, tool) => runProfile(db, skill, tool)) : [];
    if (effect === 'allow' && pins.length === 0) {
      throw policyErrors.ruleCoversNothing(pattern.trim());
    }
    const rule = addRule(db, pattern, effect, Date.now(), pins);
    this.deps.emit({ type: 'policy.changed' });
    return rule;
  }

  removeRule(id: number): void {
    removeRule(this.deps.db(), id);
    this.deps.emit({ type: 'policy.changed' });
  }

  /** Remembered approvals in force (this session's included). */
  remembered(): Remembered[] {
    return listRemembered(this.deps.db(), this.deps.session);
  }

  /** Revokes a remembered approval: the tool asks again next time. */
  revokeRemembered(id: number): void {
    revoke(this.deps.db(), id, this.deps.session);
    this.deps.emit({ type: 'policy.changed' });
  }

  /** What this machine can contain, and which skills the person took out of the sandbox. */
  sandboxStatus(): SandboxStatus {
    const { sandbox } = this.deps;
    const why = sandbox.unavailable();
    return { mechanism: why === null ? sandbox.mechanism : null, available: why === null, why, unsandboxed: listUnsandboxed(this.deps.db()) };
  }

  /**
   * Takes a loaded skill out of the sandbox (`sandboxed: false`, its runs then always ask unless a
   * rule allows them) or puts it back. Only the person does this; a skill's frontmatter cannot.
   */
  setSkillSandboxed(skill: string, sandboxed: boolean): SandboxStatus {
    // Putting a skill back needs no loaded skill: one removed from disk can still be cleaned up.
    const name = sandboxed ? skill : this.deps.library.getSkill(skill).name;
    if (setSandboxed(this.deps.db(), name, sandboxed)) this.deps.emit({ type: 'policy.changed' });
    return this.sandboxStatus();
  }
}
