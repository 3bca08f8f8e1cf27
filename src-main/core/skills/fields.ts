/**
 * Frontmatter fields of every seed format read into one Skill shape, with a diagnostic for each
 * value of the wrong kind. Unknown keys are never an error: they stay in `frontmatter`.
 */
import {
  ATTACH_TARGETS,
  EFFECT_MODES,
  INVOCATIONS,
  MODES,
  ROLES,
  type AttachTarget,
  type Classification,
  type KodeMetadata,
  type Mode,
  type PlaceholderSyntax,
  type Skill,
} from '../../shared/model.js';
import { readBox } from './box-fields.js';
import type { DiagnosticList } from './diagnostics.js';
import { characterCount, readVersion } from './format-rules.js';
import { readNetwork } from './network-hosts.js';
import type { Frontmatter } from './frontmatter-yaml.js';

/** Agent Skills name rule: lowercase alphanumerics with single inner hyphens. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Kode's looser slug rule (R1), used to say which formats a bad name breaks. */
const KODE_SLUG = /^[a-z0-9][a-z0-9-]*$/;
const KODE_PRIMARY_ENVS = ['bash', 'python', 'node', 'kd', 'none'];
const KODE_PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'auto'];

export const DEFAULT_TIMEOUT_SEC = 30;

/** The Skill fields the frontmatter decides; `syntax` is null when the frontmatter does not choose one. */
export type SkillFields = Pick<
  Skill,
  | 'description'
  | 'version'
  | 'modes'
  | 'readOnly'
  | 'network'
  | 'hosts'
  | 'alwaysAsk'
  | 'timeoutSec'
  | 'requires'
  | 'kode'
  | 'classification'
  | 'domain'
  | 'tags'
  | 'status'
  | 'license'
  | 'compatibility'
  | 'allowedTools'
  | 'box'
> & { syntax: PlaceholderSyntax | null };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A list of strings, or a comma-separated string, as tags and domains are commonly written. */
function stringList(value: unknown): string[] | null {
  if (typeof value === 'string') return nonEmptyTrimmed(value.split(','));
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return nonEmptyTrimmed(value as string[]);
  return null;
}

/**
 * `items` trimmed, the empty ones left out, in an array built by push: one made by map and filter
 * has another shape in optimised code than in the interpreter, which throws this file's optimised
 * code away and compiles it again, on every thread a cold load parses on (plain-blocks.ts says more).
 */
function nonEmptyTrimmed(items: readonly string[]): string[] {
  const kept: string[] = [];
  for (const item of items) {
    const text = item.trim();
    if (text !== '') kept.push(text);
  }
  return kept;
}

/** Checks name and description against every format's rules; lengths are in characters (code points). */
export function checkIdentity(fm: Frontmatter, dirName: string, file: string, diags: DiagnosticList): void {
  const { data } = fm;
  const nameLine = fm.lineOf(['name']);
  if (data.name === undefined || data.name === null || data.name === '') {
    diags.add('E403', 'missing required field name', file, 1);
  } else if (typeof data.name !== 'string') {
    diags.add('E405', `name must be a string, got ${JSON.stringify(data.name)}`, file, nameLine);
  } else {
    const name = data.name;
    if (characterCount(name) > 64) diags.add('E406', `name is ${characterCount(name)} characters; the limit is 64`, file, nameLine);
    if (!SLUG.test(name)) {
      const breaks = KODE_SLUG.test(name) ? (['agentskills'] as const) : (['kode', 'agentskills'] as const);
      diags.add('E405', `name '${name}' must be lowercase letters, digits and single inner hyphens`, file, nameLine, [...breaks]);
    }
    if (name !== dirName) diags.add('E407', `name '${name}' does not match directory '${dirName}'`, file, nameLine);
  }
  if (dirName.startsWith('-')) {
    const how = `skilltray describe ${dirName}`;
    diags.add('W440', `the folder's name '${dirName}' starts with '-', which other hosts' command lines read as an option (Skilltray takes it after the command: ${how}); rename the folder`, file, 1);
  }

  const descLine = fm.lineOf(['description']);
  if (data.description === undefined || data.description === null) {
    diags.add('E404', 'missing required field description', file, 1);
  } else if (typeof data.description !== 'string' || data.description.trim() === '') {
    diags.add('E404', 'description must be a non-empty string', file, descLine);
  } else if (characterCount(data.description) > 1024) {
    diags.add('E408', `description is ${characterCount(data.description)} characters; the limit is 1024`, file, descLine);
  }
}

function readModes(fm: Frontmatter, file: string, diags: DiagnosticList): Mode[] {
  const value = fm.data.modes;
  if (value === undefined || value === null) return ['Global'];
  const line = fm.lineOf(['modes']);
  const list = stringList(value);
  if (list === null) {
    diags.add('E417', 'modes must be a list such as [Global, Dev]', file, line);
    return ['Global'];
  }
  const modes: Mode[] = [];
  for (const entry of list) {
    const mode = MODES.find((m) => m.toLowerCase() === entry.toLowerCase());
    if (mode === undefined) diags.add('W411', `unknown mode '${entry}'; modes are ${MODES.join(', ')}`, file, line);
    else if (!modes.includes(mode)) modes.push(mode);
  }
  return modes;
}

function readBoolean(fm: Frontmatter, key: string, file: string, diags: DiagnosticList): boolean {
  const value = fm.data[key];
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  diags.add('E417', `${key} must be true or false, got ${JSON.stringify(value)}`, file, fm.lineOf([key]));
  return false;
}

function readTimeout(fm: Frontmatter, file: string, diags: DiagnosticList): number {
  const value = fm.data.timeout;
  if (value === undefined || value === null) return DEFAULT_TIMEOUT_SEC;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 300) return value;
  diags.add('E417', `timeout must be a whole number of seconds from 1 to 300, got ${JSON.stringify(value)}`, file, fm.lineOf(['timeout']));
  return DEFAULT_TIMEOUT_SEC;
}

function readSyntax(fm: Frontmatter, file: string, diags: DiagnosticList): PlaceholderSyntax | null {
  const value = fm.data.placeholders;
  if (value === undefined || value === null) return null;
  if (value === 'angle' || value === 'braces') return value;
  diags.add('E417', `placeholders must be 'angle' (<<key>>) or 'braces' ({{key}}), got ${JSON.stringify(value)}`, file, fm.lineOf(['placeholders']));
  return null;
}

function readNameList(value: unknown, path: string[], fm: Frontmatter, file: string, diags: DiagnosticList): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) && value.every((v) => typeof v === 'string' && v.trim() !== '') ? (value as string[]) : null;
  if (list === null) {
    diags.add('E417', `${path.join('.')} must be a list of names`, file, fm.lineOf(path), ['kode']);
    return [];
  }
  return list.map((s) => s.trim());
}

/** requires.bins/env from Kode's `metadata.kode.requires` and Skilltray's top-level `requires`, merged. */
function readRequires(fm: Frontmatter, kode: Record<string, unknown> | null, file: string, diags: DiagnosticList) {
  const bins = new Set<string>();
  const env = new Set<string>();
  const sources: [unknown, string[]][] = [
    [kode?.requires, ['metadata', 'kode', 'requires']],
    [fm.data.requires, ['requires']],
  ];
  for (const [requires, path] of sources) {
    if (requires === undefined || requires === null) continue;
    if (!isRecord(requires)) {
      diags.add('E417', `${path.join('.')} must be a mapping with bins and env`, file, fm.lineOf(path), ['kode']);
      continue;
    }
    for (const b of readNameList(requires.bins, [...path, 'bins'], fm, file, diags)) bins.add(b);
    for (const e of readNameList(requires.env, [...path, 'env'], fm, file, diags)) env.add(e);
  }
  return { bins: [...bins], env: [...env] };
}

function readKode(kode: Record<string, unknown> | null, fm: Frontmatter, file: string, diags: DiagnosticList): KodeMetadata | null {
  if (kode === null) return null;
  const path = ['metadata', 'kode'];
  const text = (key: string, allowed: readonly string[]): string | null => {
    const value = kode[key];
    if (value === undefined || value === null) return null;
    if (typeof value === 'string' && allowed.includes(value)) return value;
    diags.add('W407', `metadata.kode.${key} ${JSON.stringify(value)} is not one of ${allowed.join(', ')}`, file, fm.lineOf([...path, key]));
    return typeof value === 'string' ? value : null;
  };
  let tools: string[] | null = null;
  if (kode.tools !== undefined && kode.tools !== null) {
    tools = stringList(kode.tools);
    if (tools === null) diags.add('W407', 'metadata.kode.tools must be a list of tool names', file, fm.lineOf([...path, 'tools']));
  }
  return { primaryEnv: text('primary_env', KODE_PRIMARY_ENVS), permissionMode: text('permission_mode', KODE_PERMISSION_MODES), tools };
}

/** ADR-001 classification, checked value by value and then against its three rules. */
function readClassification(block: unknown, fm: Frontmatter, file: string, diags: DiagnosticList): Classification | null {
  if (block === undefined || block === null) return null;
  const path = ['metadata', 'classification'];
  if (!isRecord(block)) {
    diags.add('E413', 'metadata.classification must be a mapping', file, fm.lineOf(path));
    return null;
  }
  const pick = <T extends string>(key: string, allowed: readonly T[]): T | null => {
    const value = block[key];
    if (value === undefined || value === null) return null;
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    diags.add('E413', `classification ${key} ${JSON.stringify(value)} must be one of ${allowed.join(', ')}`, file, fm.lineOf([...path, key]));
    return null;
  };
  const role = pick('role', ROLES);
  const invocation = pick('invocation', INVOCATIONS);
  const effectMode = pick('effect_mode', EFFECT_MODES);
  const attachTargets: AttachTarget[] = [];
  const targetsLine = fm.lineOf([...path, 'attach_targets']);
  const rawTargets = block.attach_targets;
  if (rawTargets !== undefined && rawTargets !== null) {
    const list = stringList(rawTargets);
    if (list === null) diags.add('E413', 'classification attach_targets must be a list', file, targetsLine);
    for (const target of list ?? []) {
      if ((ATTACH_TARGETS as readonly string[]).includes(target)) attachTargets.push(target as AttachTarget);
      else diags.add('E413', `attach target '${target}' must be one of ${ATTACH_TARGETS.join(', ')}`, file, targetsLine);
    }
  }
  const invocationLine = fm.lineOf([...path, 'invocation']);
  if (role === 'sidecar' && invocation === 'direct') {
    diags.add('E414', 'a sidecar cannot have invocation direct (use attach or both)', file, invocationLine);
  }
  if ((invocation === 'attach' || invocation === 'both') && attachTargets.length === 0) {
    diags.add('E414', `invocation ${invocation} needs at least one attach target`, file, invocationLine);
  }
  if (invocation === 'direct' && rawTargets !== undefined && rawTargets !== null) {
    diags.add('E414', 'invocation direct must not list attach_targets', file, targetsLine);
  }
  return { role, invocation, attachTargets, effectMode };
}

/** The first place a discovery field is written: classification, then metadata, then top level. */
function discoveryField(fm: Frontmatter, key: string): unknown {
  const metadata = isRecord(fm.data.metadata) ? fm.data.metadata : {};
  const classification = isRecord(metadata.classification) ? metadata.classification : {};
  return classification[key] ?? metadata[key] ?? fm.data[key];
}

function optionalString(fm: Frontmatter, key: string): string | null {
  const value = fm.data[key];
  return typeof value === 'string' ? value : null;
}

/** Reads every field Skilltray uses from the frontmatter, reporting values of the wrong kind. */
export function readFields(fm: Frontmatter, file: string, diags: DiagnosticList): SkillFields {
  const metadata = isRecord(fm.data.metadata) ? fm.data.metadata : null;
  if (fm.data.metadata !== undefined && fm.data.metadata !== null && metadata === null) {
    // Skilltray reads its fields (version, classification, kode) from a mapping only; Agent Skills' validator (skills-ref) takes any value.
    diags.add('E417', 'metadata must be a mapping of keys to values, so Skilltray can read its fields', file, fm.lineOf(['metadata']), []);
  }
  const kodeBlock = metadata && isRecord(metadata.kode) ? metadata.kode : null;

  const compatibility = optionalString(fm, 'compatibility');
  const allowed = fm.data['allowed-tools'];
  const status = discoveryField(fm, 'status');
  const readOnly = readBoolean(fm, 'read_only', file, diags);
  const classification = readClassification(metadata?.classification, fm, file, diags);

  return {
    description: typeof fm.data.description === 'string' ? fm.data.description.trim() : '',
    version: readVersion(fm.data, fm.textOf),
    modes: readModes(fm, file, diags),
    readOnly,
    ...readNetwork(fm, file, diags),
    alwaysAsk: readBoolean(fm, 'always_ask', file, diags),
    timeoutSec: readTimeout(fm, file, diags),
    syntax: readSyntax(fm, file, diags),
    requires: readRequires(fm, kodeBlock, file, diags),
    kode: readKode(kodeBlock, fm, file, diags),
    classification,
    domain: stringList(discoveryField(fm, 'domain')) ?? [],
    tags: stringList(discoveryField(fm, 'tags')) ?? [],
    status: typeof status === 'string' ? status : null,
    license: optionalString(fm, 'license'),
    compatibility,
    allowedTools: typeof allowed === 'string' ? allowed : null,
    box: readBox(fm, readOnly || classification?.effectMode === 'read_only', file, diags),
  };
}
