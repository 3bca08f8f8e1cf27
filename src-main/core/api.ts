/**
 * The one service every surface calls: CLI, HTTP, MCP and Electron IPC translate to and from these
 * methods and nothing else, so every surface has the same operations and the same errors.
 */
import type { CheckReport, ShadowReport, Skill, SkillSummary } from '../shared/model.js';
import type { CoreConfig } from './config.js';
import { skillcErrors } from './errors.js';
import { skillsToCheck } from './skills/check.js';
import { SkillRegistry } from './skills/registry.js';
import { checkReport, shadowReport, summarize } from './skills/summary.js';

export class SkilltrayCore {
  readonly registry: SkillRegistry;

  constructor(readonly config: CoreConfig) {
    this.registry = new SkillRegistry(config.roots).load();
  }

  /** Every loaded skill, with the skills other roots lose to them. */
  listSkills(): { skills: SkillSummary[]; shadowed: ShadowReport[] } {
    return { skills: this.registry.list().map(summarize), shadowed: shadowReport(this.registry.shadowed()) };
  }

  /** A loaded skill by name (E001 when there is none). */
  getSkill(name: string): Skill {
    const skill = this.registry.get(name);
    if (!skill) throw skillcErrors.skillNotFound(name);
    return skill;
  }

  /** Diagnostics of a skill, a skill directory or a directory of skills. */
  check(target: string, cwd: string): CheckReport {
    return checkReport(skillsToCheck(target, cwd, this.registry));
  }

  /** Stops watchers and closes databases. */
  async close(): Promise<void> {
    await this.registry.close();
  }
}
