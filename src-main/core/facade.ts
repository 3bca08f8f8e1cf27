/**
 * The helpers of the core the surfaces use, beside the composition root (api.ts), its read side
 * (library.ts), the operations table (operations.ts), configuration (config.ts) and what they need
 * to know of runs (runs-facade.ts): each re-exported from where it lives, so lint can hold the
 * adapters (cli, server, electron) to these entry points. The CLI loads this at start, so only
 * modules every command may load: no policy, runner, runs or state.db.
 */
export { nearestNames } from './did-you-mean.js';
export { writeFileAtomic } from './files/atomic-write.js';
export { MAX_INPUT_DEPTH, nestsDeeperThan } from './input-depth.js';
export { argumentsFromStrings } from './template/render-command.js';
export { exampleArguments, exampleLine, toolExamples } from './skills/tool-examples.js';
export { skillNamesIn } from './skills/root-layout.js';
export { skillDirIn } from './skills/root-layout.js';
export { toolNamesAt } from './skills/tool-names.js';
export { TreeChecks } from './skills/tree-check.js';
