/** `search`: one ranked list over every skill, or one skill's sections (RFC-0004 with `--strict`). */
import type { SearchResult } from '../../shared/gateway.js';
import type { ParsedArgs } from '../args.js';
import type { CliContext, Command } from '../command.js';
import { emphasisOn, emphasize } from '../emphasis.js';
import type { SkillLibrary } from '../../core/library.js';
import type { ServerEvent } from '../../shared/contract.js';
// Static: main.ts already loads it for the indexing note.
import { formatHits } from '../search-text.js';
import { formatSearch } from '../format/search.js';
import { FORMAT, STRICT_ENV, finish, num, pick, strictRead } from './read-options.js';

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

export const search: Command = {
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
    strict: {
      type: 'boolean',
      description: `with a skill: search its own index as skillc does, Markdown snippets and scores (E002 when not built; also ${STRICT_ENV}=1)`,
    },
    ...FORMAT,
  },
  notes: [
    'Which words are the query:',
    '  one argument ("git status", quoted)   every skill is searched for it',
    '  several, the first names a skill      that skill is searched for the rest (search git status)',
    '  several, the first names no skill     every skill is searched for all of them (search disk space),',
    '                                        and a note on stderr says so',
    '  --all                                 every skill, for all the words, whatever the first one names',
    'Tools come first, then sections; a broken skill (one with errors) comes last, marked. Common words',
    '(how, is, my, the) are left out when others remain. With three or more other words, hits holding',
    'most of them rank first; when some hits do not hold every word, a note says so. When nothing',
    'matches, "no results for …" is said on stderr, with the query that would, when a word was mistyped.',
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
    const [first, ...rest] = args.positionals as [string, ...string[]];
    const one = rest.length > 0 && !args.options.all;
    // One skill's search from the catalog checks the skill's files meanwhile (core/skills/tree-check.ts); --strict reads its own index.
    const library = await ctx.library({ strict, ...(one && !strict ? { about: first } : {}) });
    const limit = pick({ limit: num(args, 'limit') });
    const on = emphasisOn(ctx);
    if (one) {
      try {
        if (strict) {
          const result = library.gateway.searchIndex(first, rest.join(' '), limit, ctx.cwd);
          return await finish(ctx, args, result, () =>
            formatSearch({ results: result.results.map((hit) => ({ ...hit, snippet: emphasize(hit.snippet, on) })) }),
          );
        }
        const result = library.gateway.search(first, rest.join(' '), limit, ctx.cwd);
        // The first word named a skill and only it was searched: when that found nothing, the person may have meant every skill.
        if (result.results.length === 0)
          ctx.io.err(
            `note: '${first}' names a skill, so only it was searched for "${rest.join(' ')}"; search --all ${[first, ...rest].join(' ')} searches every skill for all the words\n`,
          );
        return await printHits(ctx, args, result);
      } catch (error) {
        if (!namesNoSkill(error, first)) throw error;
        ctx.io.err(`note: no skill is named '${first}', so every skill was searched for "${[first, ...rest].join(' ')}"\n`);
      }
    }
    return printHits(
      ctx,
      args,
      withIndexProgress(ctx, library, () => library.gateway.searchAll([first, ...rest].join(' '), limit)),
    );
  },
};

/** Prints search hits (a note first when some do not hold every word), or says that nothing matched and what was probably meant. */
async function printHits(ctx: CliContext, args: ParsedArgs, result: SearchResult): Promise<number> {
  if (result.message !== null) ctx.io.err(`${result.message}\n`);
  else if (result.matched === 'any')
    ctx.io.err(`note: not every hit holds every word of "${result.query}"; the ones holding more of them, and rarer ones, come first\n`);
  return finish(ctx, args, result, () => formatHits(result, emphasisOn(ctx)));
}
