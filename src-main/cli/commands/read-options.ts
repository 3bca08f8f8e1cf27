/**
 * What the skillc read commands (outline, show, open, sources, search, build, stats, sync) share:
 * their options (`--format`, `--max-lines`, `--strict`) and how they print, text or JSON.
 */
import type { OptionSpec, ParsedArgs } from '../args.js';
import { JSON_OPTION, printJson, type CliContext, type CliIo } from '../command.js';

export const FORMAT: Record<string, OptionSpec> = {
  format: { type: 'string', value: '<text|json>', choices: ['text', 'json'], description: 'output format (default text)' },
  ...JSON_OPTION,
};

export const MAX_LINES: OptionSpec = { type: 'integer', value: '<n>', min: 0, description: 'return at most n lines' };

/** The switch that keeps RFC-0004's behaviour for a harness: E002 where a read would otherwise build the index. */
export const STRICT_ENV = 'SKILLTRAY_STRICT';

export const STRICT: OptionSpec = {
  type: 'boolean',
  description: `read as skillc does: E002 when the skill's index is not built or out of date, instead of building it (also ${STRICT_ENV}=1)`,
};

/** Whether this read is strict: `--strict`, or SKILLTRAY_STRICT set to 1. */
export function strictRead(ctx: CliContext, args: ParsedArgs): boolean {
  return args.options.strict === true || ctx.env[STRICT_ENV] === '1';
}

export const wantsJson = (args: ParsedArgs): boolean => args.options.json === true || args.options.format === 'json';

/** Optional options, without keys for the ones not given. */
export function pick<T extends Record<string, unknown>>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

export const num = (args: ParsedArgs, name: string) => args.options[name] as number | undefined;
export const str = (args: ParsedArgs, name: string) => args.options[name] as string | undefined;

/** Prints what the command produced, then any logging warnings on stderr (they never fail a command). */
export async function finish(ctx: CliContext, args: ParsedArgs, json: unknown, text: () => string): Promise<number> {
  if (wantsJson(args)) printJson(ctx, json);
  else {
    const out = text();
    ctx.io.out(out === '' || out.endsWith('\n') ? out : `${out}\n`);
  }
  for (const warning of (await ctx.library()).gateway.warnings) ctx.io.err(`${warning}\n`);
  return 0;
}

/** Output gathered into writes of about 64 KiB: a streamed outline of 5,000 files is a few dozen writes, not 5,000. */
export function chunkedOut(io: CliIo): { write(text: string): void; flush(): void } {
  let pending = '';
  const flush = (): void => {
    if (pending !== '') io.out(pending);
    pending = '';
  };
  return {
    write(text) {
      pending += text;
      if (pending.length >= 1 << 16) flush();
    },
    flush,
  };
}
