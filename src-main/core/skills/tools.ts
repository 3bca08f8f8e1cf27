/**
 * gibb.eri.sh tools in a SKILL.md body: an H3 that has a `#### Command` or `#### Parameters`
 * subsection is a tool; any other H3 is ordinary content, so Agent Skills' prose loads untouched.
 */
import type { Tokens } from 'marked';
import type { PlaceholderSyntax, Tool, ToolParam } from '../../shared/model.js';
import { lexBlocks, type Block } from '../markdown/blocks.js';
import { plainBlocks } from '../markdown/plain-blocks.js';
import { scanHeadings, type ScannedHeading } from '../markdown/heading-scan.js';
import { parseCommand, type ParsedCommand } from '../template/parse-command.js';
import { placeholderForm } from '../template/render-command.js';
import { parseParamType } from '../template/param-types.js';
import { SkilltrayError } from '../../shared/skilltray-error.js';
import type { DiagnosticList } from './diagnostics.js';
import { nearestNames } from '../did-you-mean.js';
import { readPolicySection, type PolicyCeiling } from './tool-policy.js';

const TOOL_NAME = /^[a-z0-9_]+$/;
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NO_PARAMS = /^\(?none\.?\)?\.?$/i;
/** A Required cell's words (a Map: the cell is the author's text, and "constructor" is no answer). */
const REQUIRED_WORDS: ReadonlyMap<string, boolean> = new Map(
  Object.entries({ yes: true, y: true, true: true, required: true, no: false, n: false, false: false, optional: false }),
);

export interface ToolSection {
  name: string;
  line: number;
  /** Blocks before the first H4 (the description), then per lower-cased H4 title. */
  parts: Map<string, Block[]>;
  /** Line of each H4 heading, by lower-cased title (its first). */
  partLines: Map<string, number>;
}

/** The H4 titles that make an H3 a tool. */
const TOOL_PARTS = new Set(['command', 'parameters']);

function hasToolPart(section: ToolSection): boolean {
  for (const title of TOOL_PARTS) if (section.parts.has(title)) return true;
  return false;
}

/** Groups blocks into H3 sections with their H4 subsections, keeping the tools (those with a Command or Parameters part). */
function sectionsOf(blocks: readonly Block[]): ToolSection[] {
  const sections: ToolSection[] = [];
  let current: ToolSection | null = null;
  let part = '';
  for (const block of blocks) {
    const token = block.token;
    if (token.type === 'heading' && (token.depth as number) <= 3) {
      current = (token.depth as number) === 3 ? { name: (token.text as string).trim(), line: block.line, parts: new Map(), partLines: new Map() } : null;
      if (current) sections.push(current);
      part = '';
      continue;
    }
    if (current === null) continue;
    if (token.type === 'heading' && (token.depth as number) === 4) {
      part = (token.text as string).trim().toLowerCase();
      if (!current.parts.has(part)) current.parts.set(part, []);
      if (!current.partLines.has(part)) current.partLines.set(part, block.line);
      continue;
    }
    const list = current.parts.get(part) ?? [];
    list.push(block);
    current.parts.set(part, list);
  }
  // Kept by push, not filter (nor flatMap below): see plain-blocks.ts on the arrays optimised code is compiled for.
  const tools: ToolSection[] = [];
  for (const section of sections) if (hasToolPart(section)) tools.push(section);
  return tools;
}

/** The body's tool sections from marked's lexing of all of it. */
export function lexedToolSections(body: string, bodyLine: number): ToolSection[] {
  return sectionsOf(lexBlocks(body, bodyLine));
}

/**
 * Where each tool section of the body is, as text and its first line, found without lexing where
 * the line scan can place the body's headings (heading-scan.ts, held to marked by property tests):
 * each H3 that holds a Command or Parameters H4, from its heading to the next heading of level 3 or
 * above — a top-level ATX heading at column 0 ends any block before it. Null where the scan cannot
 * place the headings.
 */
export function toolSectionTexts(body: string, bodyLine: number): { text: string; line: number }[] | null {
  const headings = scanHeadings(body, bodyLine);
  if (headings === null) return null;
  const texts: { text: string; line: number }[] = [];
  headings.forEach((heading, i) => {
    if (heading.level !== 3) return;
    let next = i + 1;
    let tool = false;
    for (; next < headings.length && (headings[next] as ScannedHeading).level > 3; next++) {
      const inner = headings[next] as ScannedHeading;
      tool ||= inner.level === 4 && TOOL_PARTS.has(inner.text.trim().toLowerCase());
    }
    if (!tool) return;
    const end = next < headings.length ? (headings[next] as ScannedHeading).offset : body.length;
    texts.push({ text: body.slice(heading.offset, end), line: heading.line });
  });
  return texts;
}

/**
 * The body's tool sections, lexing only them where toolSectionTexts can place them, so the prose
 * around the tools, most of an Agent Skill, is never lexed; elsewhere the whole body is lexed. Most
 * tool sections are headings, paragraphs, a table and a fence: lexed without marked's general lexer
 * where every line is that plain (plain-blocks.ts).
 */
export function toolSections(body: string, bodyLine: number): ToolSection[] {
  const texts = toolSectionTexts(body, bodyLine);
  if (texts === null) return lexedToolSections(body, bodyLine);
  const sections: ToolSection[] = [];
  for (const { text, line } of texts) sections.push(...sectionsOf(plainBlocks(text, line) ?? lexBlocks(text, line)));
  return sections;
}

/** A table cell's text with code-span backticks removed. */
function cellText(cell: Tokens.TableCell | undefined): string {
  return (cell?.text ?? '').trim().replace(/^`+|`+$/g, '').trim();
}

function readParams(section: ToolSection, file: string, diags: DiagnosticList): ToolParam[] {
  const blocks = section.parts.get('parameters') ?? [];
  const table = blocks.find((b) => b.token.type === 'table');
  if (!table) {
    // Here and for the columns below, loops rather than map: see plain-blocks.ts on the arrays optimised code is compiled for.
    let text = '';
    for (let k = 0; k < blocks.length; k++) text += `${k === 0 ? '' : ' '}${((blocks[k] as Block).token.raw as string).trim()}`;
    if (text !== '' && !NO_PARAMS.test(text)) {
      diags.add('E416', `tool ${section.name}: Parameters must be a Name | Type | Required | Description table or "None."`, file, blocks[0]?.line ?? section.line);
    }
    return [];
  }
  const token = table.token as Tokens.Table;
  const columns: string[] = [];
  for (const cell of token.header) columns.push(cellText(cell).toLowerCase());
  const at = (name: string) => columns.indexOf(name);
  const [iName, iType, iRequired, iDesc] = [at('name'), at('type'), at('required'), at('description')];
  if (iName < 0 || iType < 0 || iRequired < 0) {
    diags.add('E416', `tool ${section.name}: the Parameters table needs Name, Type and Required columns`, file, table.line);
    return [];
  }
  const params: ToolParam[] = [];
  token.rows.forEach((row, index) => {
    const line = table.line + 2 + index;
    const name = cellText(row[iName]);
    if (!PARAM_NAME.test(name)) {
      diags.add('E416', `tool ${section.name}: parameter name '${name}' must match [A-Za-z_][A-Za-z0-9_]*`, file, line);
      return;
    }
    if (params.some((p) => p.name === name)) {
      diags.add('E419', `tool ${section.name}: parameter '${name}' is declared twice`, file, line);
      return;
    }
    const typeText = cellText(row[iType]);
    const type = parseParamType(typeText);
    if ('error' in type) diags.add('E412', `tool ${section.name}: parameter '${name}': ${type.error}`, file, line);
    const requiredText = cellText(row[iRequired]).toLowerCase();
    const required = REQUIRED_WORDS.get(requiredText);
    if (required === undefined) {
      diags.add('E416', `tool ${section.name}: parameter '${name}': Required must be yes or no, got '${requiredText}'`, file, line);
    }
    params.push({
      name,
      type: 'error' in type ? 'string' : type.type,
      enumValues: 'error' in type ? [] : type.enumValues,
      allowDash: 'error' in type ? false : type.allowDash,
      required: required ?? false,
      description: iDesc >= 0 ? cellText(row[iDesc]) : '',
      default: null,
      line,
    });
  });
  return params;
}

/** Raw Markdown of a run of blocks, as written. */
function rawText(blocks: readonly Block[]): string | null {
  if (blocks.length === 0) return null;
  return blocks.map((b) => (b.token.raw as string).replace(/\n+$/, '')).join('\n\n');
}

/** Line of the `offset`-th character of a command block that starts on `firstLine`. */
function lineAt(text: string, offset: number, firstLine: number): number {
  return firstLine + (text.slice(0, Math.max(0, offset)).match(/\n/g)?.length ?? 0);
}

/** Checks a parsed Command against its parameters: unknown keys, unused params, shell syntax, flags. */
function checkCommand(tool: Tool, parsed: ParsedCommand, file: string, diags: DiagnosticList): void {
  const declared = new Map(tool.params.map((p) => [p.name, p]));
  for (const token of parsed.tokens) {
    for (const part of token.parts) {
      if (part.kind !== 'placeholder') continue;
      const { placeholder } = part;
      const line = lineAt(tool.command, tool.command.indexOf(placeholder.raw), tool.commandLine);
      const param = declared.get(placeholder.key);
      if (!param) {
        const near = nearestNames(placeholder.key, declared.keys())[0];
        const hint = near === undefined ? '' : `; did you mean ${placeholder.raw.replace(placeholder.key, near)} (the parameter '${near}')?`;
        diags.add('E411', `tool ${tool.name}: placeholder ${placeholder.raw} names no declared parameter${hint}`, file, line);
      } else if (placeholder.fallback?.startsWith('-') && placeholderForm(placeholder, param, token.parts.length === 1).kind === 'value') {
        const why = token.parts.length === 1 ? 'is not an option name' : 'shares its argument with other text, so it cannot stand as an option';
        diags.add(
          'W409',
          `tool ${tool.name}: ${placeholder.raw} looks like a flag, but '${placeholder.fallback}' ${why}: it is passed as the default value of the ${param.type} '${param.name}'`,
          file,
          line,
        );
      }
    }
  }
  const used = new Set(parsed.placeholders.map((p) => p.key));
  for (const param of tool.params) {
    if (!used.has(param.name)) diags.add('W404', `tool ${tool.name}: parameter '${param.name}' is never used by the Command`, file, param.line);
  }
  if (parsed.tokens[0]?.parts.some((part) => part.kind === 'placeholder')) {
    diags.add('E421', `tool ${tool.name}: the program must be written literally, not as a placeholder`, file, tool.commandLine);
  }
  if (parsed.shellSyntax.length > 0) {
    diags.add(
      'W405',
      `tool ${tool.name}: ${parsed.shellSyntax.map((s) => JSON.stringify(s)).join(', ')} will be passed literally: Skilltray never runs a shell`,
      file,
      tool.commandLine,
    );
  }
}

/** Each parameter's default as its first placeholder with a fallback gives it; a boolean's `--flag` is not a default. */
function withDefaults(params: readonly ToolParam[], parsed: ParsedCommand): ToolParam[] {
  return params.map((param) => {
    const placeholder = parsed.placeholders.find((p) => p.key === param.name && p.fallback !== null);
    const fallback = placeholder?.fallback ?? null;
    return { ...param, default: param.type === 'boolean' && fallback?.startsWith('-') ? null : fallback };
  });
}

/** Parses the tools' commands once the placeholder syntax is known, and reads the parameters' defaults from them. */
function checkCommands(tools: Tool[], syntax: PlaceholderSyntax, file: string, diags: DiagnosticList): void {
  for (const tool of tools) {
    if (tool.command === '') continue;
    try {
      const parsed = parseCommand(tool.command, syntax);
      checkCommand(tool, parsed, file, diags);
      tool.params = withDefaults(tool.params, parsed);
    } catch (error) {
      if (!(error instanceof SkilltrayError)) throw error;
      const offset = typeof error.details?.offset === 'number' ? error.details.offset : 0;
      diags.add('E420', `tool ${tool.name}: ${error.message}`, file, lineAt(tool.command, offset, tool.commandLine));
    }
  }
}

/** True when a command uses gibb.eri.sh's `{{param}}` form for declared parameters and no `<<…>>`. */
function looksLikeBraces(tool: Tool): boolean {
  if (tool.command.includes('<<')) return false;
  let keys = 0;
  for (const match of tool.command.matchAll(/\{\{([A-Za-z_][A-Za-z0-9_]*)(?::[^}]*)?\}\}/g)) {
    keys++;
    if (!tool.params.some((p) => p.name === match[1])) return false;
  }
  return keys > 0;
}

export interface ToolsResult {
  tools: Tool[];
  syntax: PlaceholderSyntax;
}

/**
 * Reads the tools of a body. The placeholder syntax is the frontmatter's choice, else the root's
 * default, else braces when every command is written in gibb.eri.sh's form (reported as W410). A
 * tool's `#### Policy` is read within what `ceiling` (the frontmatter) permits.
 */
export function readTools(
  body: string,
  bodyLine: number,
  file: string,
  declaredSyntax: PlaceholderSyntax | null,
  rootSyntax: PlaceholderSyntax,
  diags: DiagnosticList,
  ceiling?: PolicyCeiling,
): ToolsResult {
  const tools: Tool[] = [];
  for (const section of toolSections(body, bodyLine)) {
    if (!TOOL_NAME.test(section.name)) {
      diags.add('E415', `tool name '${section.name}' must be lowercase letters, digits and underscores`, file, section.line);
      continue;
    }
    if (tools.some((t) => t.name === section.name)) {
      diags.add('E419', `tool '${section.name}' is declared twice`, file, section.line);
      continue;
    }
    const description = (section.parts.get('') ?? []).find((b) => b.token.type === 'paragraph');
    if (!description) diags.add('W414', `tool ${section.name} has no description paragraph under its heading`, file, section.line);
    const fences = (section.parts.get('command') ?? []).filter((b) => b.token.type === 'code' && b.token.codeBlockStyle !== 'indented');
    if (fences.length === 0) diags.add('E409', `tool ${section.name} has no fenced block under #### Command`, file, section.line);
    if (fences.length > 1) diags.add('E410', `tool ${section.name} has ${fences.length} blocks under #### Command; it must have exactly one`, file, fences[1]?.line ?? section.line);
    const fence = fences[0];
    const policyBlocks = section.parts.get('policy');
    tools.push({
      name: section.name,
      description: description ? (description.token as Tokens.Paragraph).text.replace(/\s*\n\s*/g, ' ').trim() : '',
      params: readParams(section, file, diags),
      command: fence ? (fence.token as Tokens.Code).text : '',
      commandLine: fence ? fence.line + 1 : section.line,
      examples: rawText(section.parts.get('examples') ?? []),
      line: section.line,
      ...(policyBlocks === undefined || ceiling === undefined
        ? {}
        : { policy: readPolicySection(policyBlocks, section.partLines.get('policy') ?? section.line, section.name, ceiling, file, diags) }),
    });
  }

  let syntax = declaredSyntax ?? rootSyntax;
  if (declaredSyntax === null && rootSyntax === 'angle' && tools.some(looksLikeBraces) && !tools.some((t) => t.command.includes('<<'))) {
    syntax = 'braces';
    diags.add('W410', 'commands use gibb.eri.sh {{…}} placeholders; add `placeholders: braces` to the frontmatter to say so', file, 1);
  }
  checkCommands(tools, syntax, file, diags);
  return { tools, syntax };
}
