/**
 * One gibb.eri.sh tool pack (`*.tool.json`, or gibb's `toolpack.json`) read into one Tool. The JSON
 * is read as strict JSON (no comments, no trailing commas: gibb reads it with serde_json) from a
 * syntax tree, never into a plain object, so a key such as `__proto__` stays a name. Whatever is
 * wrong gets a diagnostic naming the file and the JSON pointer of the field (E452), or the line
 * and column where the JSON breaks (E451); a pack with an error gives no tool, and never stops the
 * packs beside it. Policy is the pack's own, with Skilltray's defaults where it says nothing
 * (`read_only` false: gibb's default of true is a claim nobody made).
 */
import type * as Jsonc from 'jsonc-parser';
import type { Node, ParseError } from 'jsonc-parser';
import { lazyRequire } from '../lazy-require.js';
import { MODES, type Mode, type ParamType, type Tool, type ToolOutput, type ToolParam, type ToolPolicy } from '../../shared/model.js';
import { ANY_HOST } from '../../shared/network-reach.js';
import { isFlagForm, packPlaceholders } from '../template/pack-command.js';
import type { DiagnosticList } from './diagnostics.js';
import { MAX_TIMEOUT_SEC } from './tool-policy.js';

/** Largest pack read (a pack is a few hundred bytes; a runaway file must not stall the loader). */
export const MAX_PACK_BYTES = 256 * 1024;
/** Deepest nesting of objects and arrays a pack may hold (gibb's schema needs four). */
export const MAX_PACK_DEPTH = 32;

/** Loaded on the first pack read: a load of SKILL.md skills alone never needs it. */
const jsonc = lazyRequire<typeof Jsonc>('jsonc-parser');

const TOOL_NAME = /^[a-z0-9_]+$/;
const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PARAM_TYPES: readonly string[] = ['string', 'integer', 'number', 'boolean'];
/**
 * gibb's own names for its modes (tool_pack.rs `parsed_modes`), as Skilltray's modes; Writer has none here.
 * A Map: a pack's word must not find the keys every object inherits.
 */
const MODE_WORDS: ReadonlyMap<string, Mode | null> = new Map(
  Object.entries({ global: 'Global', coding: 'Dev', dev: 'Dev', meeting: 'Meeting', call: 'Meeting', writer: null, writing: null, dictation: null } as const),
);
const KNOWN = {
  top: ['$schema', 'name', 'description', 'version', 'modes', 'examples', 'parameters', 'command', 'policy', 'output'],
  param: ['type', 'required', 'description', 'enum', 'default', 'source', 'allow_dash'],
  command: ['program', 'args', 'env', 'cwd'],
  policy: ['read_only', 'requires_network', 'timeout_secs', 'confirm_before_run', 'allowed_exit_codes'],
  output: ['format', 'speak', 'max_chars', 'extract_field', 'template'],
};
/** The run's working folder in gibb's words: the one `command.cwd` Skilltray takes (it is the folder the caller gives). */
const CONTEXT_CWD = '{{context.cwd}}';

/** A JSON pointer segment (RFC 6901). */
const segment = (key: string | number): string => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

/** One-pass depth of the text's objects and arrays outside strings, with the offset where it first passes `max` (or null). */
function tooDeep(text: string, max: number): number | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return i;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return null;
}

/** What reading one pack file gives: its tool, or null when it has an error (its diagnostics say which). */
export interface PackRead {
  tool: Tool | null;
}

/** Reads a pack from its bytes; `file` is where diagnostics point. */
export function readToolPack(bytes: Buffer, file: string, diags: DiagnosticList): PackRead {
  const before = diags.items.length;
  const text = bytes.toString('utf8');
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const position = (offset: number): { line: number; column: number } => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (starts[lo] as number) + 1 };
  };
  const fail = (message: string, offset: number): PackRead => {
    diags.addAt('E451', message, file, position(offset));
    return { tool: null };
  };
  if (bytes.length > MAX_PACK_BYTES) return fail(`the tool pack is ${bytes.length} bytes; Skilltray reads packs of up to ${MAX_PACK_BYTES / 1024} KiB`, 0);
  if (Buffer.from(text, 'utf8').compare(bytes) !== 0) return fail('the tool pack is not UTF-8 text', 0);
  const deep = tooDeep(text, MAX_PACK_DEPTH);
  if (deep !== null) return fail(`the tool pack nests objects and arrays more than ${MAX_PACK_DEPTH} levels deep`, deep);
  const errors: ParseError[] = [];
  const root = jsonc().parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first !== undefined) return fail(`the tool pack is not valid JSON: ${jsonc().printParseErrorCode(first.error)}`, first.offset);
  try {
    JSON.parse(text);
  } catch (error) {
    return fail(`the tool pack is not valid JSON: ${(error as Error).message}`, 0);
  }
  const tool = new PackReader(file, diags, position).read(root);
  return { tool: diags.items.slice(before).some((d) => d.severity === 'error') ? null : tool };
}

/**
 * A pack's argv as one Command line that parse-command.ts reads back word for word: a word holding
 * a blank, a quote or a backslash (or none at all) in double quotes, where only `\"` and `\\` are
 * escapes, so a tab, a newline or any other character stays itself (JSON's `\t` would not).
 */
export function commandText(argv: readonly string[]): string {
  return argv.map((word) => (word === '' || /[\s"'\\]/.test(word) ? `"${word.replace(/["\\]/g, '\\$&')}"` : word)).join(' ');
}

/** Walks one pack's syntax tree, reporting each field that is wrong at its pointer. */
class PackReader {
  constructor(
    private readonly file: string,
    private readonly diags: DiagnosticList,
    private readonly position: (offset: number) => { line: number; column: number },
  ) {}

  private at(node: Node | undefined, pointer: string): { line: number; pointer: string } {
    return { line: node === undefined ? 1 : this.position(node.offset).line, pointer };
  }

  private error(node: Node | undefined, pointer: string, message: string): void {
    this.diags.addAt('E452', `${pointer || '/'}: ${message}`, this.file, this.at(node, pointer));
  }

  private warn(node: Node | undefined, pointer: string, message: string): void {
    this.diags.addAt('W451', `${pointer || '/'}: ${message}`, this.file, this.at(node, pointer));
  }

  /** The properties of an object node by name (each name once: a second is E452), names not `known` warned (null: any name). */
  private fields(node: Node, pointer: string, known: readonly string[] | null): Map<string, Node> {
    const out = new Map<string, Node>();
    for (const property of node.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (keyNode === undefined || valueNode === undefined) continue;
      const key = keyNode.value as string;
      const here = `${pointer}/${segment(key)}`;
      if (out.has(key)) this.error(keyNode, here, `'${key}' is written twice (gibb.eri.sh refuses the pack)`);
      else if (known !== null && !known.includes(key)) this.warn(keyNode, here, `'${key}' is not a field of a tool pack here; ignored`);
      out.set(key, valueNode);
    }
    return out;
  }

  private object(node: Node | undefined, pointer: string, what: string): Node | null {
    if (node === undefined) return null;
    if (node.type === 'object') return node;
    this.error(node, pointer, `${what} must be an object`);
    return null;
  }

  private string(node: Node | undefined, pointer: string, required: boolean): string | null {
    if (node === undefined || (!required && node.type === 'null')) {
      if (required) this.error(node, pointer, 'is required');
      return null;
    }
    if (node.type === 'string') return node.value as string;
    this.error(node, pointer, `must be a string, got ${node.type}`);
    return null;
  }

  private boolean(node: Node | undefined, pointer: string): boolean | null {
    if (node === undefined) return null;
    if (node.type === 'boolean') return node.value as boolean;
    this.error(node, pointer, `must be true or false, got ${node.type}`);
    return null;
  }

  private strings(node: Node | undefined, pointer: string): string[] | null {
    if (node === undefined) return null;
    if (node.type !== 'array') {
      this.error(node, pointer, 'must be a list of strings');
      return null;
    }
    const out: string[] = [];
    (node.children ?? []).forEach((child, i) => {
      if (child.type === 'string') out.push(child.value as string);
      else this.error(child, `${pointer}/${i}`, `must be a string, got ${child.type}`);
    });
    return out;
  }

  private wholeNumber(node: Node | undefined, pointer: string, min: number, max: number): number | null {
    if (node === undefined) return null;
    const value = node.value as unknown;
    if (node.type === 'number' && Number.isInteger(value) && (value as number) >= min && (value as number) <= max) return value as number;
    this.error(node, pointer, `must be a whole number from ${min} to ${max}, got ${node.type === 'number' ? String(value) : node.type}`);
    return null;
  }

  read(root: Node | undefined): Tool | null {
    const top = this.object(root, '', 'a tool pack');
    if (top === null) return null;
    const f = this.fields(top, '', KNOWN.top);
    const nameNode = f.get('name');
    const name = this.string(nameNode, '/name', true);
    if (name !== null && !TOOL_NAME.test(name)) {
      this.error(nameNode, '/name', `'${name}' must be lowercase letters, digits and underscores (a Skilltray tool name; gibb.eri.sh takes capitals too)`);
    }
    const description = this.string(f.get('description'), '/description', true);
    if (description !== null && description.trim() === '') this.error(f.get('description'), '/description', 'is required (empty)');
    this.string(f.get('version'), '/version', false);
    const modes = this.modes(f.get('modes'));
    const examples = this.strings(f.get('examples'), '/examples');
    const { params, sources } = this.params(f.get('parameters'));
    const commandNode = this.object(f.get('command'), '/command', 'command');
    if (f.get('command') === undefined) this.error(top, '/command', 'is required');
    const pack = commandNode === null ? null : this.command(commandNode, params);
    const policy = this.policy(f.get('policy'));
    const output = this.output(f.get('output'));
    if (name === null || description === null || pack === null) return null;
    return {
      name,
      description: description.trim(),
      params,
      command: commandText([pack.program, ...pack.args]),
      commandLine: this.at(commandNode ?? undefined, '/command').line,
      // FunctionGemma's call markup is noise to a person and to search; what the user said stays.
      examples: examples === null || examples.length === 0 ? null : examples.map((e) => e.replace(/<(?:start|end)_function_call>|<escape>/g, '').trim()).join('\n\n'),
      line: this.at(nameNode, '/name').line,
      policy,
      file: this.file,
      output,
      sources,
      pack,
      ...(modes === null ? {} : { modes }),
    };
  }

  private modes(node: Node | undefined): Mode[] | null {
    const words = this.strings(node, '/modes');
    if (words === null) return null;
    const modes: Mode[] = [];
    words.forEach((word, i) => {
      const mode = MODE_WORDS.get(word.toLowerCase());
      if (mode === undefined || mode === null) {
        this.warn(node?.children?.[i], `/modes/${i}`, `'${word}' is no mode of Skilltray's (${MODES.join(', ')}); the tool is not offered in it`);
      } else if (!modes.includes(mode)) modes.push(mode);
    });
    return MODES.filter((mode) => modes.includes(mode));
  }

  private params(node: Node | undefined): { params: ToolParam[]; sources: Record<string, string> } {
    const params: ToolParam[] = [];
    const sources: Record<string, string> = Object.create(null) as Record<string, string>;
    const object = this.object(node, '/parameters', 'parameters');
    if (object === null) return { params, sources };
    for (const [name, value] of this.fields(object, '/parameters', null)) {
      const here = `/parameters/${segment(name)}`;
      if (!PARAM_NAME.test(name)) {
        this.error(value, here, `parameter name '${name}' must match [A-Za-z_][A-Za-z0-9_]*`);
        continue;
      }
      const def = this.object(value, here, `parameter '${name}'`);
      if (def === null) continue;
      const f = this.fields(def, here, KNOWN.param);
      const type = this.string(f.get('type'), `${here}/type`, true);
      const enumValues = this.enumValues(f.get('enum'), `${here}/enum`);
      let paramType: ParamType = 'string';
      if (type !== null && !PARAM_TYPES.includes(type)) {
        this.error(f.get('type'), `${here}/type`, `'${type}' is not a type Skilltray checks: string, integer, number or boolean (with enum for a choice)`);
      } else if (type !== null) paramType = enumValues === null ? (type as ParamType) : 'enum';
      const source = this.string(f.get('source'), `${here}/source`, false);
      if (source !== null) sources[name] = source;
      params.push({
        name,
        type: paramType,
        enumValues: enumValues ?? [],
        required: this.boolean(f.get('required'), `${here}/required`) ?? false,
        allowDash: this.boolean(f.get('allow_dash'), `${here}/allow_dash`) ?? false,
        description: this.string(f.get('description'), `${here}/description`, false) ?? '',
        default: defaultText(f.get('default')),
        line: this.at(value, here).line,
      });
    }
    return { params, sources };
  }

  private enumValues(node: Node | undefined, pointer: string): string[] | null {
    const values = this.strings(node, pointer);
    if (values === null) return null;
    if (values.length === 0) this.error(node, pointer, 'must list at least one value');
    values.forEach((value, i) => {
      if (value === '') this.error(node?.children?.[i], `${pointer}/${i}`, 'an enum value may not be empty');
      else if (values.indexOf(value) !== i) this.error(node?.children?.[i], `${pointer}/${i}`, `'${value}' is listed twice`);
    });
    return values;
  }

  private command(node: Node, params: readonly ToolParam[]): { program: string; args: string[] } | null {
    const f = this.fields(node, '/command', KNOWN.command);
    const programNode = f.get('program');
    const program = this.string(programNode, '/command/program', true);
    if (program !== null && program.trim() === '') this.error(programNode, '/command/program', 'is required (empty)');
    if (program !== null && program.includes('{{')) {
      this.error(programNode, '/command/program', 'the program must be written literally: gibb.eri.sh runs it as written, and Skilltray never takes it from a value');
    }
    const args = this.strings(f.get('args'), '/command/args') ?? [];
    const byName = new Map(params.map((param) => [param.name, param]));
    args.forEach((template, i) => {
      for (const placeholder of packPlaceholders(template)) {
        if (!byName.has(placeholder.key)) {
          this.error(f.get('args')?.children?.[i], `/command/args/${i}`, `{{${placeholder.key}}} names no declared parameter`);
        }
      }
      const first = packPlaceholders(template)[0];
      if (first !== undefined && first.fallback?.startsWith('-') && isFlagForm(template, byName) === null && byName.get(first.key)?.type !== 'boolean') {
        this.warn(f.get('args')?.children?.[i], `/command/args/${i}`, `'${first.fallback}' is the default value of '${first.key}', passed when no value is given (the flag form is for booleans)`);
      }
    });
    const env = this.object(f.get('env'), '/command/env', 'env');
    if (env !== null && (env.children ?? []).length > 0) this.warn(env, '/command/env', 'not set: runs get the filtered environment (docs/runner.md)');
    const cwd = this.string(f.get('cwd'), '/command/cwd', false);
    if (cwd !== null && cwd !== CONTEXT_CWD) this.warn(f.get('cwd'), '/command/cwd', `ignored: a run works in the folder its caller gives (as ${CONTEXT_CWD} would)`);
    return program === null || program.trim() === '' ? null : { program, args };
  }

  private policy(node: Node | undefined): ToolPolicy {
    const object = this.object(node, '/policy', 'policy');
    const f = object === null ? new Map<string, Node>() : this.fields(object, '/policy', KNOWN.policy);
    const network = this.boolean(f.get('requires_network'), '/policy/requires_network') ?? false;
    this.exitCodes(f.get('allowed_exit_codes'));
    // Every key set, so the tool's policy never leans on the folder's, which is only the widest of its packs.
    return {
      readOnly: this.boolean(f.get('read_only'), '/policy/read_only') ?? false,
      alwaysAsk: this.boolean(f.get('confirm_before_run'), '/policy/confirm_before_run') ?? false,
      timeoutSec: this.wholeNumber(f.get('timeout_secs'), '/policy/timeout_secs', 1, MAX_TIMEOUT_SEC) ?? 30,
      network,
      hosts: network ? [ANY_HOST] : [],
      line: this.at(node, '/policy').line,
    };
  }

  private exitCodes(node: Node | undefined): void {
    if (node === undefined) return;
    if (node.type !== 'array' || !(node.children ?? []).every((c) => c.type === 'number' && Number.isInteger(c.value))) {
      this.error(node, '/policy/allowed_exit_codes', 'must be a list of whole numbers');
    }
  }

  private output(node: Node | undefined): ToolOutput {
    const object = this.object(node, '/output', 'output');
    const f = object === null ? new Map<string, Node>() : this.fields(object, '/output', KNOWN.output);
    const format = this.string(f.get('format'), '/output/format', false);
    if (format !== null && !['text', 'json', 'markdown'].includes(format)) this.error(f.get('format'), '/output/format', `must be text, json or markdown, got '${format}'`);
    for (const key of ['extract_field', 'template']) {
      if (this.string(f.get(key), `/output/${key}`, false) !== null) {
        this.warn(f.get(key), `/output/${key}`, 'not applied: a run returns what the program printed, capped by max_chars');
      }
    }
    return {
      maxChars: this.wholeNumber(f.get('max_chars'), '/output/max_chars', 1, Number.MAX_SAFE_INTEGER),
      speak: this.boolean(f.get('speak'), '/output/speak') ?? false,
      format: format === 'json' || format === 'markdown' ? format : 'text',
    };
  }
}

/** A parameter's `default` as gibb fills it in: a string as it is, anything else as its JSON; null is none. */
function defaultText(node: Node | undefined): string | null {
  if (node === undefined || node.type === 'null') return null;
  if (node.type === 'string') return node.value as string;
  if (node.type === 'number' || node.type === 'boolean') return String(node.value);
  return JSON.stringify(nodeValue(node));
}

/** A node's value, built with own properties only (so `__proto__` is data). */
function nodeValue(node: Node): unknown {
  if (node.type === 'array') return (node.children ?? []).map(nodeValue);
  if (node.type !== 'object') return node.value as unknown;
  const out: Record<string, unknown> = {};
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? [];
    const field = { value: value === undefined ? null : nodeValue(value), enumerable: true, writable: true, configurable: true };
    if (key !== undefined) Object.defineProperty(out, key.value as string, field);
  }
  return out;
}
