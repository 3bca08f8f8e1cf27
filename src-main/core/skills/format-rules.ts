/**
 * Rules a skill is held to by the formats it belongs to. Agent Skills' rules bind every skill. A
 * gibb.eri.sh rule binds a skill only when it is a gibb.eri.sh skill (it lives in gibb.eri.sh's
 * folder), a Kode rule only a Kode skill (`metadata.kode`, or in ~/.kode/skills): a Skilltray skill
 * with tools, in Skilltray's own roots, is never warned about another app's limits.
 */
import type { SkillFormat, SkillRoot } from '../../shared/model.js';
import type { DiagnosticList } from './diagnostics.js';
import type { Frontmatter } from './frontmatter-yaml.js';

const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** gibb.eri.sh's description limit (its spec: 1–256 characters). */
const GIBB_DESCRIPTION_LIMIT = 256;
/** Agent Skills' compatibility limit (1–500 characters). */
const COMPATIBILITY_LIMIT = 500;
/** `metadata` keys other formats Skilltray reads define as mappings: Kode's block and ADR-001's classification. */
const STRUCTURED_METADATA = new Set(['kode', 'classification']);
/** A string a YAML 1.1 loader may read as a timestamp (asked of the loader itself only when it starts like one). */
const LOOKS_LIKE_DATE = /^\d{4}-\d\d?-\d\d?/;

/** Length in characters (code points), as the Agent Skills spec and its reference validator count: 600 CJK characters are 600. */
export function characterCount(text: string): number {
  return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The formats besides Agent Skills whose own rules bind this skill. */
export function formatsOf(root: SkillRoot, data: Record<string, unknown>): SkillFormat[] {
  const formats: SkillFormat[] = [];
  if (root.kind === 'gibberish') formats.push('gibberish');
  if ((isRecord(data.metadata) && data.metadata.kode !== undefined) || root.kind === 'kode') formats.push('kode');
  return formats;
}

/** The skill's version: the top-level `version` (gibb.eri.sh, Kode), else Agent Skills' `metadata.version`. */
export function readVersion(data: Record<string, unknown>, textOf?: Frontmatter['textOf']): string | null {
  if (typeof data.version === 'string') return data.version;
  // `version: 2.0` is a number to YAML: listed as it was written (W422 says to quote it).
  if (typeof data.version === 'number' && textOf !== undefined) return textOf(['version']) ?? String(data.version);
  const metadata = isRecord(data.metadata) ? data.metadata : {};
  return typeof metadata.version === 'string' ? metadata.version : null;
}

/** A value's kind, as a message names it. */
function kindOf(value: unknown): string {
  if (value === null) return 'empty';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a mapping' : `a ${typeof value} (${JSON.stringify(value)})`;
}

/** Agent Skills' own field rules (the reference validator's): compatibility, metadata, allowed-tools. */
function checkAgentSkills(fm: Frontmatter, file: string, diags: DiagnosticList): void {
  const { data } = fm;
  if (Object.hasOwn(data, 'compatibility')) {
    const value = data.compatibility;
    const line = fm.lineOf(['compatibility']);
    if (typeof value !== 'string') {
      diags.add('W406', `compatibility is ${kindOf(value)}; Agent Skills wants a string of 1 to ${COMPATIBILITY_LIMIT} characters`, file, line);
    } else if (value.trim() === '') {
      diags.add('W406', `compatibility is empty; Agent Skills wants 1 to ${COMPATIBILITY_LIMIT} characters, or no compatibility at all`, file, line);
    } else if (characterCount(value) > COMPATIBILITY_LIMIT) {
      diags.add('W406', `compatibility is ${characterCount(value)} characters; Agent Skills allows ${COMPATIBILITY_LIMIT}`, file, line);
    }
  }
  if (isRecord(data.metadata)) {
    for (const [key, value] of Object.entries(data.metadata)) {
      if (STRUCTURED_METADATA.has(key)) continue;
      const line = fm.lineOf(['metadata', key]);
      if (typeof value === 'string') {
        if (LOOKS_LIKE_DATE.test(value) && fm.readsAsDate(['metadata', key])) {
          diags.add('W415', `metadata.${key} is a date, not a string, to the YAML loaders most hosts use (js-yaml, PyYAML); Agent Skills metadata maps keys to strings: quote it as written, ${key}: "${value}"`, file, line);
        }
        continue;
      }
      const hint = typeof value === 'number' || typeof value === 'boolean' ? ': quote it as written' : Array.isArray(value) ? ': write it as one string, e.g. "a, b"' : '';
      diags.add('W415', `metadata.${key} is ${kindOf(value)}; Agent Skills metadata maps keys to strings${hint}`, file, line);
    }
  }
  checkAllowedTools(fm, file, diags);
}

/** `text` split at each separator outside parentheses (`Bash(git add, git commit)` is one tool), as written. */
function splitOutsideParens(text: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && separator.test(c)) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const words = (parts: readonly string[]): string[] => parts.map((p) => p.trim()).filter((p) => p !== '');

/** Tool names holding a space outside parentheses: no space-separated string can name them (`Azure MCP/documentation` reads as two tools). */
function spaced(names: readonly string[]): string[] {
  return names.filter((name) => words(splitOutsideParens(name, /\s/)).length > 1);
}

/**
 * Agent Skills' `allowed-tools`: one string of tools separated by spaces, not a YAML list nor a
 * comma-separated string. The suggested fix joins the tools with spaces, unless a tool's name
 * holds a space itself: joined, it would read as two tools, so the warning names it instead.
 */
function checkAllowedTools(fm: Frontmatter, file: string, diags: DiagnosticList): void {
  const allowed = fm.data['allowed-tools'];
  if (allowed === undefined || allowed === null) return;
  const line = fm.lineOf(['allowed-tools']);
  const spec = 'Agent Skills wants one string of tools separated by spaces';
  const fix = (names: readonly string[]): string => {
    const split = spaced(names);
    if (split.length === 0) return `: allowed-tools: ${names.join(' ')}`;
    const parts = split.map((name) => `'${name}' would read as ${words(splitOutsideParens(name, /\s/)).map((t) => `'${t}'`).join(' and ')}`);
    return `, where ${parts.join(', ')}: name ${split.length === 1 ? 'that tool' : 'those tools'} without spaces`;
  };
  if (Array.isArray(allowed) && allowed.every((t) => typeof t === 'string')) {
    diags.add('W408', `allowed-tools is a YAML list; ${spec}${fix(allowed)}`, file, line);
  } else if (typeof allowed !== 'string') {
    diags.add('W408', `allowed-tools is ${kindOf(allowed)}; ${spec}, e.g. allowed-tools: Bash(git:*) Read`, file, line);
  } else {
    const byComma = splitOutsideParens(allowed, /,/);
    if (byComma.length > 1) {
      const seen = words(splitOutsideParens(allowed, /\s/)).map((t) => `'${t}'`).join(' ');
      diags.add('W408', `allowed-tools separates tools with commas, so hosts read the tools ${seen}; ${spec}${fix(words(byComma))}`, file, line);
    }
  }
}

/** gibb.eri.sh's and Kode's rules, for a skill of theirs only: the description limit and a semver version. */
function checkToolFormats(fm: Frontmatter, formats: readonly SkillFormat[], file: string, diags: DiagnosticList): void {
  const { data } = fm;
  const gibb = formats.includes('gibberish');
  if (gibb && typeof data.description === 'string' && characterCount(data.description) > GIBB_DESCRIPTION_LIMIT) {
    diags.add('W401', `description is ${characterCount(data.description)} characters; gibb.eri.sh allows ${GIBB_DESCRIPTION_LIMIT}`, file, fm.lineOf(['description']), ['gibberish']);
  }
  const versioned = formats.filter((f) => f === 'gibberish' || f === 'kode');
  if (versioned.length === 0) return;
  const who = versioned.map((f) => (f === 'gibberish' ? 'gibb.eri.sh' : 'Kode')).join(' and ');
  const s = versioned.length === 1 ? 's' : '';
  const line = fm.lineOf(['version']);
  if (data.version === undefined || data.version === null) {
    const metadataVersion = readVersion({ metadata: data.metadata });
    const message =
      metadataVersion === null
        ? `version is missing; ${who} require${s} a semver version such as 1.0.0`
        : `version is only in metadata.version ('${metadataVersion}'); ${who} read${s} the top-level version: add version: 1.0.0`;
    diags.add('W402', message, file, 1, versioned);
  } else if (typeof data.version === 'number') {
    // Said by W422 (checkVersionKind), for these formats too.
  } else if (typeof data.version !== 'string') {
    diags.add('W403', `version is a ${typeof data.version}, not a semver string; quote it, e.g. "1.0.0"`, file, line, versioned);
  } else if (!SEMVER.test(data.version)) {
    diags.add('W403', `version '${data.version}' is not semver (MAJOR.MINOR.PATCH)`, file, line, versioned);
  }
}

/**
 * A top-level `version` written as a number (`version: 2.0`): YAML, in every loader hosts use, reads
 * the number 2, and a host that wants text shows nothing or "2". Listed as written; said here, as
 * breaking the formats that require a version string.
 */
function checkVersionKind(fm: Frontmatter, formats: readonly SkillFormat[], file: string, diags: DiagnosticList): void {
  if (typeof fm.data.version !== 'number') return;
  const written = fm.textOf(['version']) ?? String(fm.data.version);
  const breaks = formats.filter((f) => f === 'gibberish' || f === 'kode');
  diags.add('W422', `version ${written} is a number to YAML (read as ${String(fm.data.version)}); quote it as written: version: "${written}"`, file, fm.lineOf(['version']), breaks);
}

/** Checks the frontmatter against Agent Skills, and against gibb.eri.sh and Kode where they apply (`formats`). */
export function checkFormatRules(fm: Frontmatter, formats: readonly SkillFormat[], file: string, diags: DiagnosticList): void {
  checkAgentSkills(fm, file, diags);
  checkToolFormats(fm, formats, file, diags);
  checkVersionKind(fm, formats, file, diags);
}
