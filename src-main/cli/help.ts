/** The text of `skilltray --help` and `skilltray <command> --help`. */
import type { Command } from './command.js';

/** A command's synopsis: `skilltray show <skill> [section] [options]`. */
export function usageLine(command: Command): string {
  if (command.synopsis !== undefined) return `skilltray ${command.synopsis}`;
  const positionals = command.positionals.map((p) => (p.required ? `<${p.name}>` : `[${p.name}${p.variadic ? '…' : ''}]`));
  const options = Object.keys(command.options).length > 0 ? ['[options]'] : [];
  return `skilltray ${[command.name, ...positionals, ...options].join(' ')}`;
}

function examples(list: readonly [string, string][]): string {
  const width = Math.max(...list.map(([line]) => line.length));
  return list.map(([line, what]) => `  skilltray ${line.padEnd(width)}   # ${what}`).join('\n');
}

/** The overview's groups, in order: each command with a line in plain words (its --help says more). */
export const COMMAND_GROUPS: readonly (readonly [group: string, commands: readonly (readonly [name: string, line: string])[]])[] = [
  [
    'Run',
    [
      ['run', 'run a tool (asks you first when it must)'],
      ['history', 'the runs so far, or one run whole'],
      ['resolve', "a prompt skill's text, with your notes filled in"],
      ['attach', 'run a checking skill on a file, an output or a task'],
    ],
  ],
  [
    'Find',
    [
      ['list', 'the skills you have'],
      ['discover', 'which skills do a job ("how full is my disk")'],
      ['search', 'the tools and sections that mention some words'],
      ['describe', 'one skill: its tools, their parameters, what it needs'],
      ['show', 'read one section of a skill'],
      ['outline', "a skill's headings"],
      ['open', 'print one file of a skill'],
      ['sources', "a skill's files as a tree"],
    ],
  ],
  [
    'Packs',
    [
      ['install', 'add a skill pack from git, a folder or an archive, after a safety scan'],
      ['update', 'update installed packs, seeing what changes first'],
      ['uninstall', 'remove an installed pack'],
      ['packs', 'the packs you installed'],
      ['enable', 'turn a skill on, everywhere or in one mode'],
      ['disable', 'turn a skill off, everywhere or in one mode'],
      ['trust-key', 'trust a key that signs packs'],
      ['projects', 'the project folders whose own skills you load'],
      ['trust-project', "load a project folder's own skills, as they are now"],
      ['untrust-project', "stop loading a project folder's own skills"],
    ],
  ],
  [
    'Approvals & rules',
    [
      ['approvals', 'runs waiting for your answer'],
      ['approve', 'let a waiting run go ahead, once or always'],
      ['deny', 'refuse a waiting run'],
      ['rules', 'let tools run without asking, refuse them, or take a skill out of the sandbox'],
      ['limits', 'the most processes, memory, file size and CPU time a skill may ask for'],
      ['remembered', 'the tools you always allow; revoke one'],
      ['mode', 'Global, Dev or Meeting: which tools are offered'],
      ['pause', 'stop every run until you resume'],
      ['resume', 'let runs start again'],
      ['retention', 'how long run output is kept'],
      ['voice', 'hear a recorded answer or say a text: whether this computer can answer approvals aloud'],
    ],
  ],
  [
    'Serve & connect',
    [
      ['serve', 'answer approvals without the app: the local API, and the browser UI with --web'],
      ['connect', 'the assistants found here, or add Skilltray to one (Claude, Cursor, …)'],
      ['disconnect', "take Skilltray out of an assistant's settings"],
      ['mcp', 'the MCP server an assistant starts (connect sets that up)'],
      ['token', "the local API's access token"],
      ['roots', 'the folders skills are read from'],
      ['doctor', 'what this machine has for Skilltray (sandbox, roots, assistants, voice), with fixes'],
      ['completion', 'tab completion for bash, zsh or fish: commands, options, skills, tools'],
    ],
  ],
  [
    'Skill authors',
    [
      ['new', 'write a new skill that checks clean, ready to edit'],
      ['check', 'check a skill for mistakes, with file and line (--watch: again on every change)'],
      ['build', "build a skill's search index now"],
      ['stats', 'how often a skill was read, and what was looked for'],
      ['sync', 'merge access logs kept in a project folder'],
    ],
  ],
];

/** The overview: the commands in groups, one plain line each, and a few first steps. */
export function overview(commands: readonly Command[]): string {
  const known = new Set(commands.map((c) => c.name));
  const width = Math.max(...COMMAND_GROUPS.flatMap(([, list]) => list.map(([name]) => name.length)));
  const groups = COMMAND_GROUPS.map(
    ([group, list]) =>
      `${group}:\n${list
        .filter(([name]) => known.has(name))
        .map(([name, line]) => `  ${name.padEnd(width)}  ${line}`)
        .join('\n')}`,
  );
  const firstSteps: [string, string][] = [
    ['list', 'the skills you have'],
    ['discover "how full is my disk"', 'which skill does this job'],
    ['search "git log"', 'the tools and sections for some words'],
    ['run system disk_usage', 'run a tool (asks first when it must)'],
  ];
  return `Usage: skilltray <command> [options]\n\n${groups.join('\n\n')}\n\nExamples:\n${examples(firstSteps)}\n\nRun 'skilltray <command> --help' for a command's options and examples.\n`;
}

/** One command's help: synopsis, summary, options, examples. */
export function commandHelp(command: Command): string {
  const options = Object.entries(command.options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'boolean' ? '' : ` ${o.value ?? '<value>'}`}`;
    return `  ${flag.padEnd(24)} ${o.description}`;
  });
  options.push(`  ${'-h, --help'.padEnd(24)} show this help`);
  const notes = command.notes === undefined ? '' : `${command.notes.join('\n')}\n\n`;
  return `Usage: ${usageLine(command)}\n\n${command.summary}\n\n${notes}Options:\n${options.join('\n')}\n\nExamples:\n${examples(command.examples)}\n`;
}
