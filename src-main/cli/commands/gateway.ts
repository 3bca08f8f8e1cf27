/**
 * The skillc gateway and search commands (RFC-0002, RFC-0004, RFC-0003, RFC-0007) under `skilltray`.
 * Text output is the RFCs' form (search snippets with emphasis instead of markers); `--format json`
 * (or `--json`) prints the canonical JSON. Formatters load with the command that uses them.
 */
import { STATS_QUERY_TYPES, type SearchResult } from '../../shared/gateway.js';
import { skillcErrors } from '../../core/errors.js';
import type { OptionSpec, ParsedArgs } from '../args.js';
import { JSON_OPTION, printJson, type CliContext, type CliIo, type Command } from '../command.js';
import { emphasisOn, emphasize } from '../emphasis.js';
import type { SkillLibrary } from '../../core/library.js';
import type { ServerEvent } from '../../shared/contract.js';
// Static: main.ts already loads it for the indexing note.
import { formatHits } from '../search-text.js';
import { formatOpen } from '../format/open.js';
import { formatOutlineFile } from '../format/outline.js';
import { formatSearch } from '../format/search.js';
import { formatShow } from '../format/show.js';
import { formatSources } from '../format/sources.js';
import { formatStats } from '../format/stats.js';
import { formatSync, syncExitStatus } from '../format/sync.js';

const FORMAT: Record<string, OptionSpec> = {
  format: { type: 'string', value: '<text|json>', choices: ['text', 'json'], description: 'output format (default text)' },
  ...JSON_OPTION,
};

const MAX_LINES: OptionSpec = { type: 'integer', value: '<n>', min: 0, description: 'return at most n lines' };

/** The switch that keeps RFC-0004's behaviour for a harness: E002 where a read would otherwise build the index. */
export const STRICT_ENV = 'SKILLTRAY_STRICT';

const STRICT: OptionSpec = {
  type: 'boolean',
  description: `read as skillc does: E002 when the skill's index is not built or out of date, instead of building it (also ${STRICT_ENV}=1)`,
};

/** Whether this read is strict: `--strict`, or SKILLTRAY_STRICT set to 1. */
function strictRead(ctx: CliContext, args: ParsedArgs): boolean {
  return args.options.strict === true || ctx.env[STRICT_ENV] === '1';
}

const wantsJson = (args: ParsedArgs): boolean => args.options.json === true || args.options.format === 'json';

/** Optional options, without keys for the ones not given. */
function pick<T extends Record<string, unknown>>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

const num = (args: ParsedArgs, name: string) => args.options[name] as number | undefined;
const str = (args: ParsedArgs, name: string) => args.options[name] as string | undefined;

/** Prints what the command produced, then any logging warnings on stderr (they never fail a command). */
async function finish(ctx: CliContext, args: ParsedArgs, json: unknown, text: () => string): Promise<number> {
  if (wantsJson(args)) printJson(ctx, json);
  else {
    const out = text();
    ctx.io.out(out === '' || out.endsWith('\n') ? out : `${out}\n`);
  }
  for (const warning of (await ctx.library()).gateway.warnings) ctx.io.err(`${warning}\n`);
  return 0;
}

/** Output gathered into writes of about 64 KiB: a streamed outline of 5,000 files is a few dozen writes, not 5,000. */
function chunkedOut(io: CliIo): { write(text: string): void; flush(): void } {
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

const outline: Command = {
  name: 'outline',
  summary: "list the headings of a skill's .md files",
  positionals: [{ name: 'skill', required: true, skill: true }],
  options: { level: { type: 'integer', value: '<n>', description: 'only headings of level 1–n' }, ...FORMAT },
  examples: [
    ['outline git', "every heading of the git skill's Markdown files"],
    ['outline skill-authoring --level 2', 'only the top two levels'],
  ],
  async run(ctx, args) {
    const library = await ctx.library();
    // Streamed file by file, in exactly the form printJson / formatOutlineFile give the whole result;
    // nothing is printed before the skill resolves, so an error is the only output.
    const json = wantsJson(args);
    const out = chunkedOut(ctx.io);
    let count = 0;
    try {
      library.outlineEach(args.positionals[0] as string, pick({ level: num(args, 'level') }), ctx.cwd, (headings) => {
        if (!json) out.write(`${formatOutlineFile(headings)}\n`);
        else for (const heading of headings) out.write(`${count++ === 0 ? '{\n  "headings": [' : ','}\n${JSON.stringify(heading, null, 2).replace(/^/gm, '    ')}`);
      });
      if (json) out.write(count === 0 ? '{\n  "headings": []\n}\n' : '\n  ]\n}\n');
    } finally {
      out.flush();
    }
    for (const warning of library.gateway.warnings) ctx.io.err(`${warning}\n`);
    return 0;
  },
};

const show: Command = {
  name: 'show',
  summary: 'print one section of a skill, found by its heading (case-insensitive)',
  synopsis: 'show <skill> <section> [options]',
  positionals: [
    { name: 'skill', required: true, skill: true },
    { name: 'section', required: false, variadic: true },
  ],
  options: {
    section: { type: 'string', value: '<heading>', description: 'the heading, as an option (the same as the second argument)' },
    file: { type: 'string', value: '<path>', description: 'only look in this file' },
    'max-lines': MAX_LINES,
    strict: STRICT,
    ...FORMAT,
  },
  examples: [
    ['show git git_status', 'the section under the heading "git_status"'],
    ['show skill-authoring "Add tools"', 'a heading of several words, quoted (or not: the words after the skill are the heading)'],
    ['show skill-authoring Frontmatter --file references/frontmatter.md', 'only in that file'],
    ['show git Tools --max-lines 20', 'the first 20 lines of it'],
  ],
  async run(ctx, args) {
    const [skill, ...words] = args.positionals as [string, ...string[]];
    const option = str(args, 'section');
    if (words.length > 0 && option !== undefined) throw skillcErrors.usage('give the section once: as the second argument or with --section');
    const section = words.length > 0 ? words.join(' ') : option;
    if (section === undefined) throw skillcErrors.usage('show needs <section>, the heading to show');
    const result = (await ctx.library({ strict: strictRead(ctx, args) })).show(skill, { section, ...pick({ file: str(args, 'file'), maxLines: num(args, 'max-lines') }) }, ctx.cwd);
    if (result.warning) ctx.io.err(`${result.warning}\n`);
    return finish(ctx, args, result, () => formatShow(result));
  },
};

const open: Command = {
  name: 'open',
  summary: 'print a file of a skill as it is (any file inside the skill root)',
  positionals: [
    { name: 'skill', required: true, skill: true },
    { name: 'path', required: true },
  ],
  options: { 'max-lines': MAX_LINES, ...FORMAT },
  examples: [
    ['open skill-authoring references/frontmatter.md', 'a file of the skill, as it is'],
    ['open git SKILL.md --max-lines 30', 'its first 30 lines'],
  ],
  async run(ctx, args) {
    const [skill, path] = args.positionals as [string, string];
    const result = (await ctx.library()).open(skill, path, pick({ maxLines: num(args, 'max-lines') }), ctx.cwd);
    if (wantsJson(args)) return finish(ctx, args, result, () => '');
    ctx.io.out(formatOpen(result));
    return 0;
  },
};

const sources: Command = {
  name: 'sources',
  summary: "list a skill's files as a tree, directories first",
  positionals: [{ name: 'skill', required: true, skill: true }],
  options: {
    depth: { type: 'integer', value: '<n>', description: 'expand directories n levels deep' },
    dir: { type: 'string', value: '<path>', description: 'list this subdirectory' },
    limit: { type: 'integer', value: '<n>', description: 'at most n entries (default 100)' },
    pattern: { type: 'string', value: '<glob>', description: 'only files matching the glob, e.g. *.md' },
    ...FORMAT,
  },
  examples: [
    ['sources skill-authoring', "the skill's files as a tree"],
    ['sources skill-authoring --dir references --pattern "*.md"', 'only the Markdown files under references/'],
  ],
  async run(ctx, args) {
    const options = pick({ depth: num(args, 'depth'), dir: str(args, 'dir'), limit: num(args, 'limit'), pattern: str(args, 'pattern') });
    const result = (await ctx.library()).sources(args.positionals[0] as string, options, ctx.cwd);
    return finish(ctx, args, result, () => formatSources(result));
  },
};

/** Below this many skills to read, a cold catalog is quick enough to build without a progress line. */
const PROGRESS_FROM = 50;

/**
 * Runs `search`; on a terminal, shows the catalog's progress meanwhile while it reads the skills that
 * changed (a first search over 10,000 takes seconds) on one stderr line, cleared when done.
 */
function withIndexProgress<T>(ctx: CliContext, library: SkillLibrary, search: () => T): T {
  if (!ctx.io.stderrIsTty) return search();
  let shown = false;
  const listener = (event: ServerEvent): void => {
    if (event.type !== 'index.progress' || event.total < PROGRESS_FROM) return;
    ctx.io.err(`\rindexing ${event.done.toLocaleString('en-US')} of ${event.total.toLocaleString('en-US')} skills for search…`);
    shown = true;
  };
  library.on('event', listener);
  try {
    return search();
  } finally {
    library.off('event', listener);
    if (shown) ctx.io.err('\r\u001b[K');
  }
}

/** Whether an error says a plain word names no skill: not found, or a folder without SKILL.md (a path stays an error). */
function namesNoSkill(error: unknown, arg: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return !/[/\\]/.test(arg) && (code === 'E001' || code === 'E010');
}

const search: Command = {
  name: 'search',
  summary: 'find the tools and sections that mention some words: over every skill, or in one skill when you name it first',
  synopsis: 'search [skill] <words…> [options]',
  positionals: [
    { name: 'query', required: true, skill: true },
    { name: 'words', required: false, variadic: true },
  ],
  options: {
    all: { type: 'boolean', description: 'search every skill, even when the first word names one' },
    limit: { type: 'integer', value: '<n>', min: 1, description: 'at most n results (default 10)' },
    strict: { type: 'boolean', description: `with a skill: search its own index as skillc does, Markdown snippets and scores (E002 when not built; also ${STRICT_ENV}=1)` },
    ...FORMAT,
  },
  notes: [
    'Which words are the query:',
    '  one argument ("git status", quoted)   every skill is searched for it',
    '  several, the first names a skill      that skill is searched for the rest (search git status)',
    '  several, the first names no skill     every skill is searched for all of them (search disk space),',
    '                                        and a note on stderr says so',
    '  --all                                 every skill, for all the words, whatever the first one names',
    'Tools come first, then sections. Common words (how, is, my, the) are left out when others remain;',
    'when nothing holds every word, the hits holding some of them are shown, and a note says so.',
  ],
  examples: [
    ['search "git log"', 'every skill, for both words: the git_log tool first'],
    ['search disk space', '"disk" names no skill, so every skill, for both words'],
    ['search git status', 'only the git skill, for "status"'],
    ['search --all git status', 'every skill, for both words'],
    ['search token --limit 3 --json', 'the best three hits as data, matches marked [MATCH]…[/MATCH]'],
  ],
  async run(ctx, args) {
    const strict = strictRead(ctx, args);
    const library = await ctx.library({ strict });
    const limit = pick({ limit: num(args, 'limit') });
    const [first, ...rest] = args.positionals as [string, ...string[]];
    const on = emphasisOn(ctx);
    if (rest.length > 0 && !args.options.all) {
      try {
        if (strict) {
          const result = library.searchIndex(first, rest.join(' '), limit, ctx.cwd);
          return await finish(ctx, args, result, () => formatSearch({ results: result.results.map((hit) => ({ ...hit, snippet: emphasize(hit.snippet, on) })) }));
        }
        return await printHits(ctx, args, library.search(first, rest.join(' '), limit, ctx.cwd));
      } catch (error) {
        if (!namesNoSkill(error, first)) throw error;
        ctx.io.err(`note: no skill is named '${first}', so every skill was searched for "${[first, ...rest].join(' ')}"\n`);
      }
    }
    return printHits(ctx, args, withIndexProgress(ctx, library, () => library.searchAll([first, ...rest].join(' '), limit)));
  },
};

/** Prints search hits (a note first when none held every word). */
async function printHits(ctx: CliContext, args: ParsedArgs, result: SearchResult): Promise<number> {
  if (result.matched === 'any' && result.results.length > 0) ctx.io.err(`note: nothing holds every word of "${result.query}"; these hold some of them\n`);
  return finish(ctx, args, result, () => formatHits(result, emphasisOn(ctx)));
}

const build: Command = {
  name: 'build',
  summary: "build a skill's search index (or every skill's with --all); up-to-date indexes are kept",
  positionals: [{ name: 'skill', required: false, skill: true }],
  options: {
    all: { type: 'boolean', description: 'build every loaded skill' },
    verify: { type: 'boolean', description: 'check an index found up to date page by page, its full-text index included, and rebuild it if damaged' },
    ...FORMAT,
  },
  examples: [
    ['build git', "build (or keep) the git skill's search index"],
    ['build --all', 'every loaded skill; failures are listed, exit 1'],
    ['build git --verify', 'rebuild it if its file was damaged (reason corrupt)'],
  ],
  async run(ctx, args) {
    const library = await ctx.library();
    const skill = args.positionals[0];
    if ((skill === undefined) === !args.options.all) throw skillcErrors.usage('build takes <skill> or --all, one of them');
    const verify = args.options.verify === true ? { verify: true } : {};
    if (skill !== undefined) {
      const result = library.build(skill, ctx.cwd, verify);
      return finish(ctx, args, result, () => (result.status === 'up-to-date' ? `${result.skill}: up-to-date` : `${result.skill}: ${result.status} (${result.sections} sections, ${result.tokenizer})`));
    }
    const result = library.buildAll(ctx.cwd, verify);
    await finish(ctx, args, result, () => result.built.map((b) => `${b.skill}: ${b.status}`).join('\n'));
    for (const failure of result.failed) ctx.io.err(`${failure.skill}: error[${failure.error.code}]: ${failure.error.message}\n`);
    return result.failed.length > 0 ? 1 : 0;
  },
};

const stats: Command = {
  name: 'stats',
  summary: "how often a skill was read and searched, from its access logs",
  positionals: [{ name: 'skill', required: true, skill: true }],
  options: {
    'group-by': { type: 'string', value: '<type>', description: `${STATS_QUERY_TYPES.join('|')} (default summary)` },
    since: { type: 'string', value: '<datetime>', description: 'accesses on or after (2026-01-31, or a time such as 2026-01-31T09:00:00Z)' },
    until: { type: 'string', value: '<datetime>', description: 'accesses on or before' },
    project: { type: 'list', value: '<path>', description: 'accesses from this directory or below (repeatable)' },
    ...FORMAT,
  },
  examples: [
    ['stats git', 'how often the git skill was read, and where'],
    ['stats git --group-by sections --since 2026-01-01', 'its most read sections this year'],
  ],
  async run(ctx, args) {
    const options = pick({ groupBy: str(args, 'group-by'), since: str(args, 'since'), until: str(args, 'until'), projects: args.options.project as string[] | undefined });
    const result = (await ctx.library()).stats(args.positionals[0] as string, options, ctx.cwd);
    return finish(ctx, args, result, () => formatStats(result));
  },
};

const sync: Command = {
  name: 'sync',
  summary: 'merge access logs written to a project fallback (<cwd>/.skillc/logs) into the primary logs',
  positionals: [{ name: 'skill', required: false, skill: true }],
  options: {
    project: { type: 'string', value: '<path>', description: 'sync from this project instead of the current directory' },
    'dry-run': { type: 'boolean', description: 'show what would be synced' },
    ...JSON_OPTION,
  },
  examples: [
    ['sync', "merge this project's fallback logs of every skill"],
    ['sync git --dry-run', 'what would be merged for git'],
  ],
  async run(ctx, args) {
    const result = (await ctx.library()).syncLogs({ project: str(args, 'project') ?? ctx.cwd, ...pick({ skill: args.positionals[0], dryRun: args.options['dry-run'] as boolean | undefined }) });
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
