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

/** The overview: every command with its summary, and a few first steps. */
export function overview(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  const firstSteps: [string, string][] = [
    ['list', 'the skills you have'],
    ['discover "how full is my disk"', 'which skill does this job'],
    ['search "git status"', 'full-text search over every skill'],
    ['run system disk_usage', 'run a tool (asks first when it must)'],
  ];
  return `Usage: skilltray <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nExamples:\n${examples(firstSteps)}\n\nRun 'skilltray <command> --help' for a command's options and examples.\n`;
}

/** One command's help: synopsis, summary, options, examples. */
export function commandHelp(command: Command): string {
  const options = Object.entries(command.options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'boolean' ? '' : ` ${o.value ?? '<value>'}`}`;
    return `  ${flag.padEnd(24)} ${o.description}`;
  });
  options.push(`  ${'-h, --help'.padEnd(24)} show this help`);
  return `Usage: ${usageLine(command)}\n\n${command.summary}\n\nOptions:\n${options.join('\n')}\n\nExamples:\n${examples(command.examples)}\n`;
}
