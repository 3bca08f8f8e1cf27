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
export function readVersion(data: Record<string, unknown>): string | null {
  if (typeof data.version === 'string') return data.version;
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
      if (typeof value === 'string' || STRUCTURED_METADATA.has(key)) continue;
      const hint = typeof value === 'number' || typeof value === 'boolean' ? ': quote it as written' : Array.isArray(value) ? ': write it as one string, e.g. "a, b"' : '';
      diags.add('W415', `metadata.${key} is ${kindOf(value)}; Agent Skills metadata maps keys to strings${hint}`, file, fm.lineOf(['metadata', key]));
    }
  }
  const allowed = data['allowed-tools'];
  if (allowed !== undefined && allowed !== null && typeof allowed !== 'string') {
    diags.add('W408', 'allowed-tools must be a space-separated string, e.g. "Bash(git:*) Read"', file, fm.lineOf(['allowed-tools']));
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
  } else if (typeof data.version !== 'string') {
    diags.add('W403', `version is a ${typeof data.version}, not a semver string; quote it, e.g. "1.0.0"`, file, line, versioned);
  } else if (!SEMVER.test(data.version)) {
    diags.add('W403', `version '${data.version}' is not semver (MAJOR.MINOR.PATCH)`, file, line, versioned);
  }
}

/** Checks the frontmatter against Agent Skills, and against gibb.eri.sh and Kode where they apply (`formats`). */
export function checkFormatRules(fm: Frontmatter, formats: readonly SkillFormat[], file: string, diags: DiagnosticList): void {
  checkAgentSkills(fm, file, diags);
  checkToolFormats(fm, formats, file, diags);
}
