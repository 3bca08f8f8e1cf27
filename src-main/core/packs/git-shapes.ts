/**
 * The shapes of git a tool may run: git reading a repository, never running anything the
 * repository, the pack or the caller hands it. git runs code through `-c` settings (core.pager,
 * core.sshCommand, core.fsmonitor, alias.*), `--config-env`, aliases (a subcommand it does not
 * know), transports (`--upload-pack`, `ext::`), hooks, external diffs and textconv filters. So a
 * vetted git has: `-c core.fsmonitor=false` (a repository's fsmonitor hook runs on a mere
 * `status`), only the `-c` settings below (each turning something off), a subcommand named here
 * (literal: a caller's subcommand can be an alias), only that subcommand's options below, and for
 * those that print patches, `--no-ext-diff --no-textconv`.
 */
import { readOptions, type Arg, type OptionSpec } from './tool-argv.js';

/** `-c` settings that turn something off, each with the values vetted (keys compared in lowercase; a Map: a key is the pack's text). */
const VETTED_CONFIG: ReadonlyMap<string, RegExp> = new Map(
  Object.entries({
    'core.fsmonitor': /^false$/,
    'core.hookspath': /^\/dev\/null$/,
    'log.showsignature': /^false$/,
    'color.ui': /^(?:never|false|auto|always)$/,
    'core.quotepath': /^(?:false|off|true|on)$/,
    'core.untrackedcache': /^false$/,
    'core.pager': /^cat$/,
    'protocol.allow': /^never$/,
    'gc.auto': /^0$/,
  }),
);

const GLOBAL: OptionSpec = {
  flags: [
    '--no-pager',
    '-P',
    '--no-optional-locks',
    '--literal-pathspecs',
    '--noglob-pathspecs',
    '--glob-pathspecs',
    '--icase-pathspecs',
    '--no-replace-objects',
  ],
  values: ['-C', '-c'],
  literalOnly: ['-c'],
};

const HISTORY_FLAGS = [
  '--oneline --graph --decorate --no-decorate --all --stat --shortstat --numstat --name-only --name-status --summary -p --patch --no-patch -s --raw',
  '--reverse --first-parent --no-merges --merges --follow --abbrev-commit --no-abbrev-commit --no-color --no-ext-diff --no-textconv -z --topo-order',
  '--date-order --author-date-order --full-history --simplify-by-decoration --left-right --cherry-pick --boundary -i --regexp-ignore-case --all-match',
  '--invert-grep -E --extended-regexp -F --fixed-strings --cached --staged -w --ignore-all-space -b --ignore-space-change --ignore-blank-lines',
  '--patience --histogram --minimal --exit-code --quiet -R --relative --no-relative --word-diff --check --full-index --no-prefix --no-renames',
  '--find-renames --find-copies --no-walk --no-notes --parents --children --source --pretty --compact-summary --dirstat --cumulative --color-moved',
].join(' ');
const HISTORY_VALUES = [
  '-n --max-count --skip --since --after --until --before --author --committer --grep -S -G --date --format --pretty --diff-filter -U --unified',
  '--stat --abbrev --color --word-diff --decorate -L --max-parents --min-parents --relative --dirstat --inter-hunk-context --word-diff-regex',
  '--encoding --anchored --diff-algorithm --src-prefix --dst-prefix --line-prefix --glob --branches --tags --remotes --exclude --find-renames --find-copies',
].join(' ');

const spec = (flags: string, values = ''): OptionSpec => ({ flags: flags.split(' ').filter(Boolean), values: values.split(' ').filter(Boolean) });

/** Each vetted subcommand: its options, and whether it prints patches (then `--no-ext-diff --no-textconv` are required). */
const SUBCOMMANDS: Record<string, { options: OptionSpec; patches?: boolean; operands?: (ops: string[]) => boolean }> = {
  status: {
    options: spec(
      '-s --short -b --branch --porcelain --long -z --ignored --show-stash --ahead-behind --no-ahead-behind --no-renames --renames -v --verbose -uno -unormal -uall',
      '--porcelain --untracked-files --ignore-submodules --ignored',
    ),
  },
  log: { options: spec(HISTORY_FLAGS, HISTORY_VALUES), patches: true },
  show: { options: spec(HISTORY_FLAGS, HISTORY_VALUES), patches: true },
  diff: { options: spec(HISTORY_FLAGS, HISTORY_VALUES), patches: true },
  blame: {
    options: spec(
      '-l -s -w -e -p --porcelain --line-porcelain -t -f --show-name -n --show-number --root --show-stats -c --no-textconv',
      '-L --date --ignore-rev',
    ),
    patches: true,
  },
  branch: {
    options: spec(
      '-a --all -r --remotes -v -vv --verbose --list -l --show-current --no-color --no-column --merged --no-merged --contains',
      '--sort --format --contains --no-contains --merged --no-merged --points-at --color',
    ),
  },
  'rev-parse': {
    options: spec(
      '--show-toplevel --show-prefix --show-cdup --git-dir --git-common-dir --absolute-git-dir --is-inside-work-tree --is-inside-git-dir --is-bare-repository --is-shallow-repository --abbrev-ref --symbolic-full-name --verify -q --quiet --short --all --branches --tags --symbolic --show-object-format',
      '--short --abbrev-ref --since --until --default',
    ),
  },
  'ls-files': {
    options: spec(
      '-c --cached -d --deleted -m --modified -o --others -i --ignored -s --stage -u --unmerged -k --killed -z --exclude-standard --directory --no-empty-directory --eol --full-name -t -v -f --error-unmatch --deduplicate',
      '-x --exclude --exclude-per-directory --abbrev --format',
    ),
  },
  'ls-tree': { options: spec('-r -t -d -l --long -z --name-only --name-status --object-only --full-name --full-tree', '--abbrev --format') },
  'cat-file': { options: spec('-t -s -e -p') },
  'rev-list': {
    options: spec(
      '--count --all --reverse --no-merges --merges --first-parent --left-right --topo-order --date-order',
      '-n --max-count --since --until --after --before --author --grep --skip --format',
    ),
  },
  describe: {
    options: spec('--tags --all --always --long --exact-match --first-parent --contains --dirty', '--abbrev --match --exclude --candidates --dirty'),
  },
  shortlog: { options: spec('-s --summary -n --numbered -e --email --all -c --committer', '--since --until --format --group -w') },
  tag: { options: spec('-l --list', '--sort --contains --no-contains --merged --no-merged --points-at --format -n') },
  'show-ref': { options: spec('--heads --tags --head -d --dereference -s --hash --verify -q --quiet', '--abbrev') },
  'merge-base': { options: spec('--is-ancestor --all --octopus --independent --fork-point') },
  'for-each-ref': {
    options: spec('--ignore-case --omit-empty', '--format --sort --count --points-at --merged --no-merged --contains --no-contains --exclude'),
  },
  'count-objects': { options: spec('-v -H') },
  grep: {
    options: spec(
      '-n --line-number -i --ignore-case -w --word-regexp -v --invert-match -l --files-with-matches -L --files-without-match -c --count -h -H --full-name -E -F -G -P --extended-regexp --fixed-strings --basic-regexp --perl-regexp --cached --untracked --no-index -I -a --text --heading --break -p --show-function -W --function-context -z --null -o --only-matching -q --quiet --all-match --column --no-color --no-textconv',
      '-e --max-depth -m --max-count -A -B -C --context --after-context --before-context --threads --color',
    ),
  },
  remote: { options: spec('-v --verbose'), operands: (ops) => ops.length === 0 || (ops[0] === 'get-url' && ops.length === 2) },
  config: {
    options: spec(
      '--get --get-all --get-regexp --list -l --global --local -z --null --name-only --show-origin --show-scope --bool --int --path --includes',
      '--type --default',
    ),
    operands: (ops) => ops.length <= 2,
  },
  stash: { options: spec(''), operands: (ops) => ops.length === 1 && ops[0] === 'list' },
  worktree: { options: spec('--porcelain -v -z'), operands: (ops) => ops.length === 1 && ops[0] === 'list' },
  version: { options: spec('--build-options') },
};

/** Why a `-c name=value` is not vetted, or null. */
function configWhy(setting: Arg): string | null {
  const eq = setting.text.indexOf('=');
  const key = (eq === -1 ? setting.text : setting.text.slice(0, eq)).toLowerCase();
  const allowed = VETTED_CONFIG.get(key);
  if (eq === -1 || allowed === undefined || !allowed.test(setting.text.slice(eq + 1)))
    return `-c ${setting.text} is no vetted setting (the vetted ones each turn something off: ${[...VETTED_CONFIG.keys()].join(', ')})`;
  return null;
}

/** Why these git arguments match no vetted shape, or null when they do. */
export function gitWhy(args: readonly Arg[]): string | null {
  if (args.length === 1 && args[0]?.text === '--version' && !args[0].slot) return null;
  // The global options end where the subcommand starts; `-C`/`-c` take the next word, so skip their values.
  let at = 0;
  while (at < args.length && (args[at] as Arg).text.startsWith('-') && !(args[at] as Arg).dash) at += ['-C', '-c'].includes((args[at] as Arg).text) ? 2 : 1;
  const global = readOptions(args.slice(0, at), GLOBAL);
  if (typeof global === 'string') return global.replace('no option vetted here', 'no global option vetted for git');
  const settings = global.seen.filter((o) => o.name === '-c');
  for (const setting of settings) {
    const why = configWhy(setting.value as Arg);
    if (why !== null) return why;
  }
  const sub = args[at];
  if (sub === undefined) return 'it names no subcommand';
  if (sub.slot) return `its subcommand ${sub.text} comes from the caller, and can be an alias (which runs whatever the alias says)`;
  const shape = Object.hasOwn(SUBCOMMANDS, sub.text) ? SUBCOMMANDS[sub.text] : undefined;
  if (shape === undefined) return `${sub.text} is no subcommand vetted here (vetted: ${Object.keys(SUBCOMMANDS).join(', ')}); an unknown one can be an alias`;
  if (!settings.some((s) => s.value?.text.toLowerCase() === 'core.fsmonitor=false'))
    return 'it lacks -c core.fsmonitor=false, so a repository whose config names an fsmonitor hook runs it';
  const read = readOptions(args.slice(at + 1), shape.options);
  if (typeof read === 'string') return `git ${sub.text}: ${read}`;
  if (shape.patches === true) {
    const missing = (sub.text === 'blame' ? ['--no-textconv'] : ['--no-ext-diff', '--no-textconv']).filter((flag) => !read.seen.some((o) => o.name === flag));
    if (missing.length > 0) return `git ${sub.text} without ${missing.join(' ')} runs the external diff or textconv program a repository's config names`;
  }
  if (shape.operands !== undefined && !shape.operands(read.operands.map((o) => o.text))) return `git ${sub.text} with these operands is no vetted shape`;
  return null;
}
