/**
 * The skillc gateway and search commands (RFC-0002, RFC-0004, RFC-0003, RFC-0007) under `skilltray`.
 * Text output is the RFCs' exact form; `--format json` (or `--json`) prints the canonical JSON.
 */
import { formatOpen } from '../../core/gateway/open.js';
import { formatOutlineFile } from '../../core/gateway/outline.js';
import { formatShow } from '../../core/gateway/show.js';
import { formatSources } from '../../core/gateway/sources.js';
import { formatStats } from '../../core/logs/stats.js';
import { STATS_QUERY_TYPES } from '../../shared/gateway.js';
import { formatSync, syncExitStatus } from '../../core/logs/sync.js';
import { formatSearch } from '../../core/search/query.js';
import { skillcErrors } from '../../core/errors.js';
import type { OptionSpec, ParsedArgs } from '../args.js';
import { JSON_OPTION, printJson, type CliContext, type Command } from '../command.js';

const FORMAT: Record<string, OptionSpec> = {
  format: { type: 'string', value: '<text|json>', choices: ['text', 'json'], description: 'output format (default text)' },
  ...JSON_OPTION,
};

const MAX_LINES: OptionSpec = { type: 'integer', value: '<n>', min: 0, description: 'return at most n lines' };

const wantsJson = (args: ParsedArgs): boolean => args.options.json === true || args.options.format === 'json';

/** Optional options, without keys for the ones not given. */
function pick<T extends Record<string, unknown>>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

const num = (args: ParsedArgs, name: string) => args.options[name] as number | undefined;
const str = (args: ParsedArgs, name: string) => args.options[name] as string | undefined;

/** Prints what the command produced, then any logging warnings on stderr (they never fail a command). */
function finish(ctx: CliContext, args: ParsedArgs, json: unknown, text: () => string): number {
  if (wantsJson(args)) printJson(ctx, json);
  else {
    const out = text();
    ctx.io.out(out === '' || out.endsWith('\n') ? out : `${out}\n`);
  }
  for (const warning of ctx.core().gateway.warnings) ctx.io.err(`${warning}\n`);
  return 0;
}

const outline: Command = {
  name: 'outline',
  summary: "list the headings of a skill's .md files (RFC-0002)",
  positionals: [{ name: 'skill', required: true }],
  options: { level: { type: 'integer', value: '<n>', description: 'only headings of level 1–n' }, ...FORMAT },
  run(ctx, args) {
    // Streamed file by file, in exactly the form printJson / formatOutlineFile give the whole result;
    // nothing is printed before the skill resolves, so an error is the only output.
    const json = wantsJson(args);
    let count = 0;
    ctx.core().outlineEach(args.positionals[0] as string, pick({ level: num(args, 'level') }), ctx.cwd, (headings) => {
      if (!json) ctx.io.out(`${formatOutlineFile(headings)}\n`);
      else for (const heading of headings) ctx.io.out(`${count++ === 0 ? '{\n  "headings": [' : ','}\n${JSON.stringify(heading, null, 2).replace(/^/gm, '    ')}`);
    });
    if (json) ctx.io.out(count === 0 ? '{\n  "headings": []\n}\n' : '\n  ]\n}\n');
    for (const warning of ctx.core().gateway.warnings) ctx.io.err(`${warning}\n`);
    return 0;
  },
};

const show: Command = {
  name: 'show',
  summary: 'print one section of a skill, found by its heading (case-insensitive)',
  positionals: [{ name: 'skill', required: true }],
  options: {
    section: { type: 'string', value: '<heading>', description: 'the heading to show (required)' },
    file: { type: 'string', value: '<path>', description: 'only look in this file' },
    'max-lines': MAX_LINES,
    ...FORMAT,
  },
  run(ctx, args) {
    const section = str(args, 'section');
    if (section === undefined) throw skillcErrors.invalidOption('--section is required');
    const result = ctx.core().show(args.positionals[0] as string, { section, ...pick({ file: str(args, 'file'), maxLines: num(args, 'max-lines') }) }, ctx.cwd);
    if (result.warning) ctx.io.err(`${result.warning}\n`);
    return finish(ctx, args, result, () => formatShow(result));
  },
};

const open: Command = {
  name: 'open',
  summary: 'print a file of a skill as it is (any file inside the skill root)',
  positionals: [
    { name: 'skill', required: true },
    { name: 'path', required: true },
  ],
  options: { 'max-lines': MAX_LINES, ...FORMAT },
  run(ctx, args) {
    const [skill, path] = args.positionals as [string, string];
    const result = ctx.core().open(skill, path, pick({ maxLines: num(args, 'max-lines') }), ctx.cwd);
    if (wantsJson(args)) return finish(ctx, args, result, () => '');
    ctx.io.out(formatOpen(result));
    return 0;
  },
};

const sources: Command = {
  name: 'sources',
  summary: "list a skill's files as a tree, directories first",
  positionals: [{ name: 'skill', required: true }],
  options: {
    depth: { type: 'integer', value: '<n>', description: 'expand directories n levels deep' },
    dir: { type: 'string', value: '<path>', description: 'list this subdirectory' },
    limit: { type: 'integer', value: '<n>', description: 'at most n entries (default 100)' },
    pattern: { type: 'string', value: '<glob>', description: 'only files matching the glob, e.g. *.md' },
    ...FORMAT,
  },
  run(ctx, args) {
    const options = pick({ depth: num(args, 'depth'), dir: str(args, 'dir'), limit: num(args, 'limit'), pattern: str(args, 'pattern') });
    const result = ctx.core().sources(args.positionals[0] as string, options, ctx.cwd);
    return finish(ctx, args, result, () => formatSources(result));
  },
};

const search: Command = {
  name: 'search',
  summary: 'full-text search (BM25) in one skill, or with --all over every loaded skill',
  positionals: [
    { name: 'skill', required: true },
    { name: 'query', required: false },
  ],
  options: {
    all: { type: 'boolean', description: 'search every loaded skill: search --all <query>' },
    limit: { type: 'integer', value: '<n>', min: 1, description: 'at most n results (default 10)' },
    ...FORMAT,
  },
  run(ctx, args) {
    const core = ctx.core();
    const limit = pick({ limit: num(args, 'limit') });
    if (args.options.all) {
      if (args.positionals.length !== 1) throw skillcErrors.invalidOption('search --all takes one <query>');
      const result = core.searchAll(args.positionals[0] as string, limit);
      return finish(ctx, args, result, () => formatSearch(result));
    }
    const [skill, query] = args.positionals;
    if (query === undefined) throw skillcErrors.invalidOption('missing <query>');
    const result = core.search(skill as string, query, limit, ctx.cwd);
    return finish(ctx, args, result, () => formatSearch(result));
  },
};

const build: Command = {
  name: 'build',
  summary: "build a skill's search index (or every skill's with --all); up-to-date indexes are kept",
  positionals: [{ name: 'skill', required: false }],
  options: { all: { type: 'boolean', description: 'build every loaded skill' }, ...FORMAT },
  run(ctx, args) {
    const core = ctx.core();
    const skill = args.positionals[0];
    if ((skill === undefined) === !args.options.all) throw skillcErrors.invalidOption('build takes <skill> or --all');
    if (skill !== undefined) {
      const result = core.build(skill, ctx.cwd);
      return finish(ctx, args, result, () => (result.status === 'up-to-date' ? `${result.skill}: up-to-date` : `${result.skill}: ${result.status} (${result.sections} sections, ${result.tokenizer})`));
    }
    const result = core.buildAll(ctx.cwd);
    finish(ctx, args, result, () => result.built.map((b) => `${b.skill}: ${b.status}`).join('\n'));
    for (const failure of result.failed) ctx.io.err(`${failure.skill}: error[${failure.error.code}]: ${failure.error.message}\n`);
    return result.failed.length > 0 ? 1 : 0;
  },
};

const stats: Command = {
  name: 'stats',
  summary: "usage analytics from a skill's access logs (RFC-0003)",
  positionals: [{ name: 'skill', required: true }],
  options: {
    'group-by': { type: 'string', value: '<type>', description: `${STATS_QUERY_TYPES.join('|')} (default summary)` },
    since: { type: 'string', value: '<datetime>', description: 'accesses on or after (RFC 3339 or YYYY-MM-DD)' },
    until: { type: 'string', value: '<datetime>', description: 'accesses on or before' },
    project: { type: 'list', value: '<path>', description: 'accesses from this directory or below (repeatable)' },
    ...FORMAT,
  },
  run(ctx, args) {
    const options = pick({ groupBy: str(args, 'group-by'), since: str(args, 'since'), until: str(args, 'until'), projects: args.options.project as string[] | undefined });
    const result = ctx.core().stats(args.positionals[0] as string, options, ctx.cwd);
    return finish(ctx, args, result, () => formatStats(result));
  },
};

const sync: Command = {
  name: 'sync',
  summary: 'merge access logs written to a project fallback (<cwd>/.skillc/logs) into the primary logs',
  positionals: [{ name: 'skill', required: false }],
  options: {
    project: { type: 'string', value: '<path>', description: 'sync from this project instead of the current directory' },
    'dry-run': { type: 'boolean', description: 'show what would be synced' },
    ...JSON_OPTION,
  },
  run(ctx, args) {
    const result = ctx.core().syncLogs({ project: str(args, 'project') ?? ctx.cwd, ...pick({ skill: args.positionals[0], dryRun: args.options['dry-run'] as boolean | undefined }) });
    if (args.options.json) printJson(ctx, result);
    else {
      const text = formatSync(result);
      if (text.stdout) ctx.io.out(`${text.stdout}\n`);
      if (text.stderr) ctx.io.err(`${text.stderr}\n`);
    }
    return syncExitStatus(result);
  },
};

export const gatewayCommands: Command[] = [outline, show, open, sources, search, build, stats, sync];
