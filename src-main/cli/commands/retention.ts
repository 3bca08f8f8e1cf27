/** `skilltray retention`: how long run output is kept in state.db, what history holds, and applying retention now. */
import type { SkilltrayClient } from '../../shared/contract.js';
import type { HistoryUsage, MaintenanceReport, Retention } from '../../shared/runs.js';
import type { SkilltrayCore } from '../../core/api.js';
import { JSON_OPTION, printJson, type Command } from '../command.js';
import { findRunningOwner } from '../owner-link.js';

const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** The steps, asked of the running owner (so its UI follows) or of this process's core. */
interface HistoryTarget {
  retention(): Promise<Retention>;
  setRetention(change: Partial<Retention>): Promise<Retention>;
  maintain(): Promise<MaintenanceReport>;
  usage(): Promise<HistoryUsage>;
}

function atOwner(client: SkilltrayClient): HistoryTarget {
  return {
    retention: async () => (await client.settings({})).retention,
    setRetention: async (change) =>
      (
        await client.setRetention({
          ...(change.outputDays === undefined ? {} : { output_days: change.outputDays }),
          ...(change.outputMaxMb === undefined ? {} : { output_max_mb: change.outputMaxMb }),
        })
      ).retention,
    maintain: () => client.maintainHistory({}),
    usage: () => client.historyUsage({}),
  };
}

function here(core: SkilltrayCore): HistoryTarget {
  return {
    retention: async () => core.preferences.settings().retention,
    setRetention: async (change) => core.preferences.setRetention(change).retention,
    maintain: () => core.preferences.maintainHistory(),
    usage: async () => core.preferences.historyUsage(),
  };
}

export const retentionCommand: Command = {
  name: 'retention',
  summary: 'show or set how long run output is kept in state.db (records are always kept); --apply drops expired output and vacuums now',
  positionals: [],
  options: {
    'output-days': { type: 'integer', value: '<n>', min: 1, description: 'keep run output this many days (1–3650; default 30)' },
    'output-mb': {
      type: 'integer',
      value: '<n>',
      min: 1,
      description: 'keep at most this many MiB of run output in all, oldest dropped first (1–102400; default 100)',
    },
    apply: { type: 'boolean', description: 'apply retention and vacuum state.db now (the app and serve also do it hourly)' },
    ...JSON_OPTION,
  },
  examples: [
    ['retention', 'how long output is kept, and what history holds now'],
    ['retention --output-days 7 --output-mb 50', 'keep a week of output, 50 MiB at most'],
    ['retention --apply', 'drop expired output and give the space back now'],
  ],
  async run(ctx, args) {
    const owner = await findRunningOwner(ctx.config().home);
    const target = owner === null ? here(await ctx.core()) : atOwner(owner.client);
    const days = args.options['output-days'];
    const size = args.options['output-mb'];
    const change: Partial<Retention> = {
      ...(typeof days === 'number' ? { outputDays: days } : {}),
      ...(typeof size === 'number' ? { outputMaxMb: size } : {}),
    };
    const retention = Object.keys(change).length === 0 ? await target.retention() : await target.setRetention(change);
    const maintenance = args.options.apply ? await target.maintain() : null;
    const usage = await target.usage();
    if (args.options.json) {
      printJson(ctx, { retention, usage, ...(maintenance === null ? {} : { maintenance }) });
      return 0;
    }
    let text = `Run output is kept ${retention.outputDays} days, and ${retention.outputMaxMb} MiB in all (oldest dropped first); every run's record is kept.\n`;
    if (maintenance !== null) {
      text += `Dropped the output of ${maintenance.droppedByAge + maintenance.droppedBySize} runs (${maintenance.droppedByAge} by age, ${maintenance.droppedBySize} by size, ${mib(maintenance.bytesDropped)}); vacuum: ${maintenance.vacuum}, ${mib(maintenance.bytesFreed)} given back.\n`;
    }
    text += `History: ${usage.runs} runs, ${usage.runsWithOutput} with output (${mib(usage.outputBytes)}); state.db ${mib(usage.dbBytes)}${usage.freeBytes > 0 ? ` (${mib(usage.freeBytes)} free)` : ''}.\n`;
    ctx.io.out(text);
    return 0;
  },
};
