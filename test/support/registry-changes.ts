/** Waiting for what a skill registry's watcher reports. */
import type { SkillChange, SkillRegistry } from '../../src-main/core/skills/registry.js';

/** The next change the registry reports for the skill `name` (the test's own timeout bounds the wait). */
export function nextChange(registry: SkillRegistry, name: string): Promise<SkillChange> {
  return new Promise((resolve) => {
    const listener = (change: SkillChange): void => {
      if (change.name !== name) return;
      registry.off('change', listener);
      resolve(change);
    };
    registry.on('change', listener);
  });
}
