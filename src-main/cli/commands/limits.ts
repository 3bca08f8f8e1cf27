/** `skilltray limits`: the resource limits every run gets, and the ceiling on what a skill may ask for. */
import type { ResourceLimits } from '../../shared/model.js';
import { JSON_OPTION, printJson, type Command } from '../command.js';
import { atOwnerOrHere } from '../here-or-there.js';

/** The options, the limit each sets, its name in the contract and its unit. */
const OPTIONS = [
  { option: 'processes', limit: 'processes', input: 'processes', unit: 'processes' },
  { option: 'memory-mb', limit: 'memoryMiB', input: 'memory_mb', unit: 'MiB of memory' },
  { option: 'file-size-mb', limit: 'fileSizeMiB', input: 'file_size_mb', unit: 'MiB per file' },
  { option: 'cpu-seconds', limit: 'cpuSeconds', input: 'cpu_seconds', unit: 's of CPU' },
] as const;

const list = (limits: ResourceLimits): string => OPTIONS.map(({ limit, unit }) => `${limits[limit]} ${unit}`).join(', ');

export const limitsCommand: Command = {
  name: 'limits',
  summary: 'show the resource limits every run gets, or set the ceiling on what a skill may ask for in its limits',
  positionals: [],
  options: {
    processes: { type: 'integer', value: '<n>', min: 1, description: 'a skill may ask for at most this many processes at once' },
    'memory-mb': { type: 'integer', value: '<n>', min: 1, description: 'at most this many MiB of memory (per process; the whole run where a cgroup applies)' },
    'file-size-mb': { type: 'integer', value: '<n>', min: 1, description: 'files of at most this many MiB' },
    'cpu-seconds': { type: 'integer', value: '<n>', min: 1, description: 'at most this many seconds of CPU time per process' },
    ...JSON_OPTION,
  },
  examples: [
    ['limits', 'what every run gets, and the most a skill may ask for'],
    ['limits --memory-mb 4096 --processes 512', 'let skills ask for up to 4 GiB and 512 processes'],
  ],
  async run(ctx, args) {
    const change: Partial<ResourceLimits> = {};
    const input: Partial<Record<(typeof OPTIONS)[number]['input'], number>> = {};
    for (const { option, limit, input: key } of OPTIONS) {
      const value = args.options[option];
      if (typeof value !== 'number') continue;
      change[limit] = value;
      input[key] = value;
    }
    const changed = Object.keys(change).length > 0;
    // The running owner takes the change, so its UI follows.
    const ceiling: ResourceLimits = await atOwnerOrHere(ctx, {
      operation: changed ? 'setLimitCeiling' : 'settings',
      there: async (owner) => (changed ? await owner.setLimitCeiling(input) : await owner.settings({})).limitCeiling,
      here: (core) => (changed ? core.preferences.setLimitCeiling(change) : core.preferences.settings()).limitCeiling,
    });
    // Loaded here: every command's module loads with the CLI, and policy belongs to the commands that run.
    const { DEFAULT_LIMITS } = await import('../../core/runs-facade.js');
    if (args.options.json) {
      printJson(ctx, { defaults: DEFAULT_LIMITS, ceiling });
      return 0;
    }
    ctx.io.out(`Every run gets ${list(DEFAULT_LIMITS)} unless its skill asks for more (limits: in SKILL.md).\nA skill may ask for at most ${list(ceiling)}.\n`);
    return 0;
  },
};
