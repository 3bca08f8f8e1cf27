/**
 * The loader's diagnostics: E4xx errors (Skilltray will not run the skill) and W4xx warnings
 * (it will, but some format minds). Each code names the formats whose own tools reject or flag it,
 * so `skilltray check` doubles as a linter for skills meant for gibb.eri.sh, Kode or Agent Skills.
 */
import type { Diagnostic, Severity, SkillFormat, SkillState, Tool } from '../../shared/model.js';

const ALL: SkillFormat[] = ['gibberish', 'kode', 'agentskills'];
const GIBB: SkillFormat[] = ['gibberish'];

interface DiagnosticSpec {
  severity: Severity;
  breaks: SkillFormat[];
  summary: string;
}

/** Every loader diagnostic code, its severity, the formats it breaks, and a one-line summary for docs. */
export const DIAGNOSTICS = {
  E401: { severity: 'error', breaks: ALL, summary: 'SKILL.md has no frontmatter block' },
  E402: { severity: 'error', breaks: ALL, summary: 'frontmatter is not a valid YAML mapping' },
  E403: { severity: 'error', breaks: ALL, summary: 'frontmatter has no name' },
  E404: { severity: 'error', breaks: ALL, summary: 'frontmatter has no description, or it is empty' },
  E405: { severity: 'error', breaks: ['kode', 'agentskills'], summary: 'name is not a slug: [a-z0-9] with single inner hyphens' },
  E406: { severity: 'error', breaks: ['agentskills'], summary: 'name is longer than 64 characters' },
  E407: { severity: 'error', breaks: ALL, summary: 'name does not match the directory name' },
  E408: { severity: 'error', breaks: ['agentskills', 'gibberish'], summary: 'description is longer than 1024 characters' },
  E409: { severity: 'error', breaks: GIBB, summary: 'a tool has no Command block' },
  E410: { severity: 'error', breaks: GIBB, summary: 'a tool has more than one Command block' },
  E411: { severity: 'error', breaks: GIBB, summary: 'a placeholder names no declared parameter' },
  E412: { severity: 'error', breaks: GIBB, summary: 'a parameter has an unknown type' },
  E413: { severity: 'error', breaks: [], summary: 'a classification field has an unknown value (ADR-001)' },
  E414: { severity: 'error', breaks: [], summary: 'the classification breaks an ADR-001 rule' },
  E415: { severity: 'error', breaks: GIBB, summary: 'a tool name is not [a-z0-9_]+' },
  E416: { severity: 'error', breaks: GIBB, summary: 'a Parameters table is malformed' },
  E417: { severity: 'error', breaks: GIBB, summary: 'a frontmatter field has a value of the wrong kind' },
  E418: { severity: 'error', breaks: ALL, summary: 'SKILL.md or its folder cannot be read: not a regular file, unreadable, binary, not UTF-8, over 1 MiB, or a folder name that is not UTF-8' },
  E419: { severity: 'error', breaks: GIBB, summary: 'a tool or parameter name is declared twice' },
  E420: { severity: 'error', breaks: GIBB, summary: 'a Command cannot be parsed (quotes or placeholders)' },
  E421: { severity: 'error', breaks: [], summary: 'the program (first word) of a Command is a placeholder' },
  E430: { severity: 'error', breaks: [], summary: '`reads` is not a list of home (`~/…`) or absolute paths the box can show' },
  E431: { severity: 'error', breaks: [], summary: '`writes` is not a list of paths relative to the working directory' },
  E432: { severity: 'error', breaks: [], summary: '`limits` is not a mapping of known limits to whole numbers in range' },
  E422: { severity: 'error', breaks: ALL, summary: 'the skill file is named SKILL.md in other capitals (SKILL.MD, skill.md): no SKILL.md to read' },
  E433: { severity: 'error', breaks: [], summary: "a `reads` entry is a secret place, lies in one or holds one (keys, credentials, browser profiles, Skilltray's home)" },
  E434: { severity: 'error', breaks: [], summary: "a Command's program is written as a path in a secret place or Skilltray's home" },
  E425: { severity: 'error', breaks: GIBB, summary: 'network is not true, false, host or a list of host patterns' },
  E450: { severity: 'error', breaks: [], summary: 'a `#### Policy` line is not `key: value`, names an unknown key, or has a bad value' },
  E451: { severity: 'error', breaks: GIBB, summary: 'a tool pack is not JSON Skilltray can read: malformed (line and column), too big, or nested too deep' },
  E452: { severity: 'error', breaks: GIBB, summary: 'a tool pack field is missing or has a value of the wrong kind (with its JSON pointer)' },
  E460: { severity: 'error', breaks: [], summary: 'a skill taken from an MCP source does not hold the files the person approved' },
  W401: { severity: 'warning', breaks: GIBB, summary: 'a gibb.eri.sh skill’s description is longer than 256 characters' },
  W402: { severity: 'warning', breaks: ['gibberish', 'kode'], summary: 'a gibb.eri.sh or Kode skill has no top-level version' },
  W403: { severity: 'warning', breaks: ['gibberish', 'kode'], summary: 'a gibb.eri.sh or Kode skill’s version is not semver' },
  W404: { severity: 'warning', breaks: [], summary: 'a declared parameter is never used by the Command' },
  W405: { severity: 'warning', breaks: [], summary: 'a Command uses shell syntax, which is passed literally' },
  W406: { severity: 'warning', breaks: ['agentskills'], summary: 'compatibility is not a string of 1 to 500 characters' },
  W407: { severity: 'warning', breaks: ['kode'], summary: 'a metadata.kode field has an unknown value' },
  W408: { severity: 'warning', breaks: ['agentskills'], summary: 'allowed-tools is not a space-separated string (a YAML list, or tools separated by commas)' },
  W409: { severity: 'warning', breaks: [], summary: 'a non-boolean parameter has a dash-led fallback that is a plain default, not the option form' },
  W410: { severity: 'warning', breaks: [], summary: 'gibb.eri.sh {{…}} placeholders detected without `placeholders: braces`' },
  W411: { severity: 'warning', breaks: GIBB, summary: 'modes lists a mode that does not exist' },
  W412: { severity: 'warning', breaks: [], summary: 'a symlink leads outside the skill and was skipped' },
  W413: { severity: 'warning', breaks: [], summary: 'the skill is too big to hash whole (files or bytes): the rest were not read, and it never runs unasked' },
  W414: { severity: 'warning', breaks: GIBB, summary: 'a tool has no description paragraph' },
  W415: { severity: 'warning', breaks: ['agentskills'], summary: 'a metadata value is not a string (to YAML 1.1 loaders either: an unquoted date)' },
  W416: { severity: 'warning', breaks: [], summary: 'an installed pack’s skill differs from packs.lock.json (edited behind its back)' },
  W417: { severity: 'warning', breaks: [], summary: 'a file or folder of the skill cannot be read, so its content hash cannot cover it' },
  W418: { severity: 'warning', breaks: [], summary: 'an entry that is neither a file nor a folder (a FIFO, a socket, a device) was skipped' },
  W419: { severity: 'warning', breaks: ALL, summary: 'a frontmatter value holds `: ` unquoted: read as text, but strict YAML parsers refuse it' },
  W420: { severity: 'warning', breaks: [], summary: 'a skill in the bundled folder is not the one Skilltray shipped (not in its manifest, or changed): a user skill' },
  W421: { severity: 'warning', breaks: [], summary: 'a skill hides another skill of the same name in a later root' },
  W422: { severity: 'warning', breaks: [], summary: 'the version is written as a number (2.0): YAML loaders read 2; quote it' },
  W430: { severity: 'warning', breaks: [], summary: 'a `writes` entry is not guarded (the workspace is writable anyway), or the skill is read-only' },
  W450: { severity: 'warning', breaks: [], summary: 'a tool’s policy asks for more than the skill permits (ignored), or conflicts with it (writes on a read-only tool)' },
  W451: { severity: 'warning', breaks: [], summary: 'a tool pack field Skilltray does not apply as gibb.eri.sh would (with its JSON pointer)' },
  W452: { severity: 'warning', breaks: [], summary: 'a folder holds both SKILL.md and tool packs: SKILL.md is the skill, the packs are not read' },
  W460: { severity: 'warning', breaks: [], summary: 'a skill taken from an MCP source declares what would widen its runs, ignored until the person approves it' },
  W440: { severity: 'warning', breaks: ['kode', 'agentskills'], summary: 'the skill’s folder name starts with `-`, which command lines read as an option' },
} as const satisfies Record<string, DiagnosticSpec>;

export type DiagnosticCode = keyof typeof DIAGNOSTICS;

/** Collects the diagnostics of one skill. */
export class DiagnosticList {
  readonly items: Diagnostic[] = [];

  add(code: DiagnosticCode, message: string, file: string, line: number, breaks?: SkillFormat[]): void {
    const spec: DiagnosticSpec = DIAGNOSTICS[code];
    this.items.push({ code, severity: spec.severity, message, file, line: Math.max(1, line), breaks: breaks ?? [...spec.breaks] });
  }

  /** A diagnostic about a JSON file: its line, and the column or the JSON pointer of what is wrong where known. */
  addAt(code: DiagnosticCode, message: string, file: string, at: { line: number; column?: number; pointer?: string }): void {
    this.add(code, message, file, at.line);
    const added = this.items[this.items.length - 1] as Diagnostic;
    if (at.column !== undefined) added.column = at.column;
    if (at.pointer !== undefined) added.pointer = at.pointer;
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }
}

/**
 * A skill's state from its diagnostics. In a folder of tool packs (its tools carry their `file`), a
 * pack that did not load is its own loss: its errors leave the folder's other tools to run, unless
 * no tool loaded at all.
 */
export function stateOf(diagnostics: readonly Diagnostic[], tools: readonly Pick<Tool, 'file'>[], packs: readonly string[] = []): SkillState {
  const loaded = new Set(tools.map((tool) => tool.file));
  const left = new Set(packs.filter((file) => !loaded.has(file)));
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.some((d) => !left.has(d.file)) || (errors.length > 0 && tools.length === 0)) return 'error';
  return diagnostics.length > 0 ? 'warnings' : 'ok';
}
