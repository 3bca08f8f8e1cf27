/**
 * What a search reads of a tool, and what a hit on it shows. A tool's Command is matched only by
 * what a caller sees of it: the program, its fixed words (`log`, `status`) and its parameters'
 * names — never the fixed flags a skill adds for safety (`-c log.showSignature=false` would make
 * every git tool match "log").
 */
import type { PlaceholderSyntax, Tool } from '../../shared/model.js';
import type { ToolBrief } from '../../shared/gateway.js';
import { SkilltrayError } from '../../shared/skilltray-error.js';
import { parseCommand } from '../template/parse-command.js';
import { firstSentence } from './plain-text.js';

/** Where a tool's Command sits in SKILL.md, and the words of it a search may match. */
export interface CatalogTool {
  name: string;
  /** Lines of SKILL.md (1-based, inclusive) that hold the Command block's text. */
  commandLines: [first: number, last: number] | null;
  /** The caller-facing words of the Command, e.g. `git ‹repo› log ‹count› ‹path›`. */
  commandWords: string;
}

/** What the catalog reads of a skill's tools: their names and Commands, with the syntax their placeholders are written in. */
export interface ToolCommands {
  syntax: PlaceholderSyntax;
  tools: readonly Pick<Tool, 'name' | 'command' | 'commandLine'>[];
}

/** A short option that takes the next word as its value (`-c name=value`, `-o pid,comm`, `-W 2`). */
const SHORT_OPTION = /^-[A-Za-z]$/;

/**
 * The Command as a caller sees it: the program's name, the literal words that are not options (a
 * subcommand such as `log`), and each placeholder as its parameter's name; fixed options and their
 * values are left out. A Command that does not parse gives its program's name alone.
 */
export function callerFacingCommand(command: string, syntax: PlaceholderSyntax): string {
  let tokens;
  try {
    tokens = parseCommand(command, syntax).tokens;
  } catch (error) {
    if (!(error instanceof SkilltrayError)) throw error;
    return command.trim().split(/\s+/)[0] ?? '';
  }
  const words: string[] = [];
  let skipValue = false;
  tokens.forEach((token, i) => {
    const placeholders = token.parts.flatMap((part) => (part.kind === 'placeholder' ? [`‹${part.placeholder.key}›`] : []));
    const literal = token.parts.map((part) => (part.kind === 'text' ? part.value : '')).join('');
    if (placeholders.length > 0) {
      words.push(...placeholders);
      skipValue = false;
      return;
    }
    if (i === 0) {
      words.push(literal.split(/[/\\]/).pop() ?? literal);
      return;
    }
    if (skipValue && !literal.startsWith('-')) {
      skipValue = false;
      return;
    }
    skipValue = SHORT_OPTION.test(literal);
    if (!literal.startsWith('-') && literal !== '') words.push(literal);
  });
  return words.join(' ');
}

/** The catalog's view of a skill's tools. */
export function catalogTools({ tools, syntax }: ToolCommands): CatalogTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    commandLines: tool.command === '' ? null : [tool.commandLine, tool.commandLine + tool.command.split('\n').length - 1],
    commandWords: callerFacingCommand(tool.command, syntax),
  }));
}

/** What a hit on a tool shows: its name, one line about it, and its parameters. */
export function toolBrief(tool: Tool): ToolBrief {
  return {
    name: tool.name,
    summary: firstSentence(tool.description),
    params: tool.params.map((p) => ({ name: p.name, type: p.type, required: p.required, default: p.default })),
  };
}
