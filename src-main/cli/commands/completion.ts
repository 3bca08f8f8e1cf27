/**
 * `completion bash|zsh|fish`: a completion script made from the command table, so it never falls
 * behind the commands and their options. Skills and tools are completed as they are now: the script
 * asks `skilltray completion --skills` (the roots' folders, read without parsing a skill or opening
 * state.db) and `--tools <skill>` (that one SKILL.md's headings; the skill loaded only where they need marked).
 */
import { skillDirIn, skillNamesIn, toolNamesAt } from '../../core/facade.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import type { OptionSpec } from '../args.js';
import type { Command } from '../command.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

/** What a positional takes: a skill's name, one of its tools, a shell, or a path (the shell's own completion). */
type Kind = 'skill' | 'tool' | 'shell' | 'path';

/** The kind of each command's positionals, first to last. */
function positionalKinds(command: Command): Kind[] {
  return command.positionals.map((p) => (p.skill === true ? 'skill' : p.name === 'tool' ? 'tool' : p.name === 'shell' ? 'shell' : 'path'));
}

/** Option words of a command, `--help` included. */
function optionWords(command: Command): string[] {
  return [...Object.keys(command.options).map((name) => `--${name}`), '--help'];
}

/** The options that take a value (the next word is that value, never a positional). */
function valueOptions(command: Command): [string, OptionSpec][] {
  return Object.entries(command.options).filter(([, spec]) => spec.type !== 'boolean');
}

/** Options whose value is a folder or file. */
const PATH_VALUES = new Set(['cwd', 'dir', 'path', 'from', 'out']);

/** Text safe inside single quotes in bash, zsh and fish. */
function quoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** fish's single quotes escape a quote with a backslash. */
function fishQuoted(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** `cmd:n` patterns of each kind of positional, for a case statement. */
function positionalCases(commands: readonly Command[]): Map<Kind, string[]> {
  const cases = new Map<Kind, string[]>();
  for (const command of commands) {
    positionalKinds(command).forEach((kind, n) => cases.set(kind, [...(cases.get(kind) ?? []), `${command.name}:${n}`]));
  }
  return cases;
}

/**
 * The case labels bash and zsh share: `cmd:--option` of options taking a folder and of those taking
 * another free value, each command's value-taking options, and the `cmd:n` pattern of a positional kind.
 */
function caseLabels(commands: readonly Command[]) {
  const cases = positionalCases(commands);
  return {
    pathValues: commands.flatMap((c) => valueOptions(c).flatMap(([name]) => (PATH_VALUES.has(name) ? [quoted(`${c.name}:--${name}`)] : []))),
    otherValues: commands.flatMap((c) =>
      valueOptions(c).flatMap(([name, spec]) => (PATH_VALUES.has(name) || spec.choices !== undefined ? [] : [quoted(`${c.name}:--${name}`)])),
    ),
    takesValue: commands.map(
      (c) =>
        `    ${c.name}) values=${quoted(
          valueOptions(c)
            .map(([name]) => `--${name}`)
            .join(' '),
        )} ;;`,
    ),
    pattern: (kind: Kind): string => (cases.get(kind) ?? ['-']).join('|'),
  };
}

function bashScript(commands: readonly Command[]): string {
  const { pathValues, otherValues, takesValue, pattern } = caseLabels(commands);
  const choiceCases = commands.flatMap((c) =>
    valueOptions(c).flatMap(([name, spec]) =>
      spec.choices === undefined
        ? []
        : [`    ${quoted(`${c.name}:--${name}`)}) COMPREPLY=($(compgen -W ${quoted(spec.choices.join(' '))} -- "$cur")); return ;;`],
    ),
  );
  const options = commands.map((c) => `    ${c.name}) COMPREPLY=($(compgen -W ${quoted(optionWords(c).join(' '))} -- "$cur")) ;;`);
  return `# skilltray completion for bash: add to ~/.bashrc
#   source <(skilltray completion bash)
# or save it as ~/.local/share/bash-completion/completions/skilltray
_skilltray_ask() { command skilltray completion "$@" 2>/dev/null; }
_skilltray() {
  local cur=\${COMP_WORDS[COMP_CWORD]} cmd=\${COMP_WORDS[1]} prev=\${COMP_WORDS[COMP_CWORD-1]}
  COMPREPLY=()
  if (( COMP_CWORD == 1 )); then
    COMPREPLY=($(compgen -W ${quoted([...commands.map((c) => c.name), '--help', '--version'].join(' '))} -- "$cur"))
    return
  fi
  case "$cmd:$prev" in
${choiceCases.join('\n')}
    ${pathValues.join('|') || "'-'"}) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    ${otherValues.join('|') || "'-'"}) return ;;
  esac
  if [[ $cur == -* ]]; then
    case $cmd in
${options.join('\n')}
    esac
    return
  fi
  local values='' i n=0 skill=''
  case $cmd in
${takesValue.join('\n')}
  esac
  for (( i = 2; i < COMP_CWORD; i++ )); do
    if [[ \${COMP_WORDS[i]} == -* ]]; then
      [[ " $values " == *" \${COMP_WORDS[i]} "* ]] && (( i++ ))
      continue
    fi
    (( n == 0 )) && skill=\${COMP_WORDS[i]}
    (( n++ ))
  done
  case "$cmd:$n" in
    ${pattern('skill')}) COMPREPLY=($(compgen -W "$(_skilltray_ask --skills)" -- "$cur")) ;;
    ${pattern('tool')}) COMPREPLY=($(compgen -W "$(_skilltray_ask --tools "$skill")" -- "$cur")) ;;
    ${pattern('shell')}) COMPREPLY=($(compgen -W ${quoted(SHELLS.join(' '))} -- "$cur")) ;;
  esac
}
complete -o default -F _skilltray skilltray
`;
}

function zshScript(commands: readonly Command[]): string {
  const { pathValues, otherValues, takesValue, pattern } = caseLabels(commands);
  const described = commands.map((c) => `    ${quoted(`${c.name}:${c.summary.replace(/:/g, '\\:')}`)}`);
  const choiceCases = commands.flatMap((c) =>
    valueOptions(c).flatMap(([name, spec]) =>
      spec.choices === undefined ? [] : [`    ${quoted(`${c.name}:--${name}`)}) compadd -- ${spec.choices.join(' ')}; return ;;`],
    ),
  );
  const options = commands.map((c) => `    ${c.name}) compadd -- ${optionWords(c).join(' ')} ;;`);
  return `#compdef skilltray
# skilltray completion for zsh: add to ~/.zshrc (after compinit)
#   source <(skilltray completion zsh)
# or save it as _skilltray in a folder on your $fpath
_skilltray() {
  local cmd=\${words[2]} cur=\${words[CURRENT]} prev=\${words[CURRENT-1]}
  if (( CURRENT == 2 )); then
    local -a cmds
    cmds=(
${described.join('\n')}
    )
    _describe -t commands 'skilltray command' cmds
    return
  fi
  case "$cmd:$prev" in
${choiceCases.join('\n')}
    ${pathValues.join('|') || "'-'"}) _files -/; return ;;
    ${otherValues.join('|') || "'-'"}) return ;;
  esac
  if [[ $cur == -* ]]; then
    case $cmd in
${options.join('\n')}
    esac
    return
  fi
  local values='' skill='' w
  local -i i n=0
  case $cmd in
${takesValue.join('\n')}
  esac
  for (( i = 3; i < CURRENT; i++ )); do
    w=\${words[i]}
    if [[ $w == -* ]]; then
      [[ " $values " == *" $w "* ]] && (( i++ ))
      continue
    fi
    (( n == 0 )) && skill=$w
    (( n++ ))
  done
  case "$cmd:$n" in
    ${pattern('skill')}) compadd -- \${(f)"$(command skilltray completion --skills 2>/dev/null)"} ;;
    ${pattern('tool')}) compadd -- \${(f)"$(command skilltray completion --tools "$skill" 2>/dev/null)"} ;;
    ${pattern('shell')}) compadd -- ${SHELLS.join(' ')} ;;
    *) _files ;;
  esac
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  _skilltray "$@"
else
  compdef _skilltray skilltray
fi
`;
}

function fishScript(commands: readonly Command[]): string {
  const cases = positionalCases(commands);
  const lines = commands.flatMap((c) => [
    `complete -c skilltray -n __fish_use_subcommand -a ${c.name} -d ${fishQuoted(c.summary)}`,
    ...Object.entries(c.options).map(([name, spec]) => {
      const value =
        spec.type === 'boolean' ? '' : spec.choices !== undefined ? ` -x -a ${fishQuoted(spec.choices.join(' '))}` : PATH_VALUES.has(name) ? ' -r -F' : ' -x';
      return `complete -c skilltray -n '__fish_seen_subcommand_from ${c.name}' -l ${name}${value} -d ${fishQuoted(spec.description)}`;
    }),
  ]);
  const valueCases = commands
    .filter((c) => valueOptions(c).length > 0)
    .map(
      (c) =>
        `        case ${c.name}\n            set values ${valueOptions(c)
          .map(([name]) => `--${name}`)
          .join(' ')}`,
    );
  const kindCases = (['skill', 'tool', 'shell'] as const).map((kind) => `        case ${(cases.get(kind) ?? ['-']).join(' ')}\n            echo ${kind}`);
  return `# skilltray completion for fish: save it as ~/.config/fish/completions/skilltray.fish
#   skilltray completion fish > ~/.config/fish/completions/skilltray.fish
function __skilltray_position --description 'what the word being typed is: skill, tool or shell; and the skill before it'
    set -l words (commandline -opc)
    set -l cmd $words[2]
    set -l values
    switch $cmd
${valueCases.join('\n')}
    end
    set -l n 0
    set -l skill ''
    set -l skip 0
    for w in $words[3..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        if string match -q -- '-*' $w
            contains -- $w $values; and set skip 1
            continue
        end
        test $n = 0; and set skill $w
        set n (math $n + 1)
    end
    switch "$cmd:$n"
${kindCases.join('\n')}
        case '*'
            echo path
    end
    echo $skill
end
function __skilltray_at --argument-names kind
    test (__skilltray_position)[1] = $kind
end
complete -c skilltray -f
complete -c skilltray -n __fish_use_subcommand -l help -d 'show the commands'
complete -c skilltray -n __fish_use_subcommand -l version -d 'print the version'
${lines.join('\n')}
complete -c skilltray -n '__skilltray_at skill' -a '(command skilltray completion --skills 2>/dev/null)'
complete -c skilltray -n '__skilltray_at tool' -a '(command skilltray completion --tools (__skilltray_position)[2] 2>/dev/null)'
complete -c skilltray -n '__skilltray_at shell' -a ${fishQuoted(SHELLS.join(' '))}
complete -c skilltray -n '__skilltray_at path' -F
`;
}

const SCRIPTS: Record<Shell, (commands: readonly Command[]) => string> = { bash: bashScript, zsh: zshScript, fish: fishScript };

/** The `completion` command over the command table `commands()` (the table holds this command too). */
export function completionCommand(commands: () => readonly Command[]): Command {
  return {
    name: 'completion',
    summary: 'print a completion script for bash, zsh or fish: commands, options, skills and tools',
    positionals: [{ name: 'shell', required: false }],
    options: {
      skills: { type: 'boolean', description: 'print the skill names, one a line (what the scripts complete a skill with)' },
      tools: { type: 'string', value: '<skill>', description: "print the skill's tool names, one a line" },
    },
    notes: ['The scripts ask skilltray for skill and tool names as you type, so new skills complete at once.'],
    examples: [
      ['completion bash', 'for bash: add  source <(skilltray completion bash)  to ~/.bashrc'],
      ['completion zsh', 'for zsh: save it as _skilltray in a folder on $fpath, before compinit'],
      ['completion fish', 'for fish: save it as ~/.config/fish/completions/skilltray.fish'],
      ['completion --tools git', 'what the scripts ask for: the tools of a skill, one a line'],
    ],
    async run(ctx, args) {
      const [shell] = args.positionals;
      if (args.options.skills) {
        const names = new Set(ctx.config().roots.flatMap((root) => skillNamesIn(root)));
        ctx.io.out(
          [...names]
            .sort()
            .map((name) => `${name}\n`)
            .join(''),
        );
        return 0;
      }
      if (typeof args.options.tools === 'string') {
        const name = args.options.tools;
        // First match wins, as for the loader; headings a line scan cannot place, or a skill of another root, are loaded.
        const dir = ctx.config().roots.reduce<string | null>((found, root) => found ?? skillDirIn(root, name), null);
        const names = (dir === null ? null : toolNamesAt(dir)) ?? (await ctx.library()).getSkill(name).tools.map((tool) => tool.name);
        ctx.io.out(names.map((tool) => `${tool}\n`).join(''));
        return 0;
      }
      if (shell === undefined) throw skillcErrors.usage(`completion needs a shell: ${SHELLS.join(', ')}`);
      if (!(SHELLS as readonly string[]).includes(shell)) throw skillcErrors.invalidOption(`the shell must be one of ${SHELLS.join(', ')}, got '${shell}'`);
      ctx.io.out(SCRIPTS[shell as Shell](commands()));
      return 0;
    },
  };
}
