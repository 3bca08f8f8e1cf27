/**
 * The helpers of the core the surfaces use, beside the composition root (api.ts), its read side
 * (library.ts), the operations table (operations.ts), coded errors (errors.ts) and configuration
 * (config.ts): each re-exported from where it lives, so lint can hold the adapters (cli, server,
 * electron) to these entry points. Light modules only (no SQLite, no node:crypto): the CLI loads this
 * at start. What only an owner of runs needs is re-exported by api.ts instead.
 */
export { nearestNames } from './did-you-mean.js';
export { MAX_INPUT_DEPTH, nestsDeeperThan } from './input-depth.js';
export { describeProfile } from './policy/profile.js';
export { DEFAULT_LIMITS } from './policy/resource-limits.js';
export { parseRuleEffect } from './policy/rules.js';
export { isAlive, thisProcess } from './runs/owner.js';
export { argumentsFromStrings } from './template/render-command.js';
