/**
 * What a surface needs to know of runs without holding the core: who owns them (a pid-reuse-safe
 * liveness check, this process as an owner) and how policy reads to a person (a sandbox profile, the
 * default limits, a rule's effect). Re-exported from where they live; the CLI loads this only with
 * the commands that use it (see facade.ts for what loads at start).
 */
export { describeProfile } from './policy/profile.js';
export { DEFAULT_LIMITS } from './policy/resource-limits.js';
export { parseRuleEffect } from './policy/rules.js';
export { isAlive, thisProcess } from './process-identity.js';
