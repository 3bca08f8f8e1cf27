/**
 * What an update changes, skill by skill and tool by tool, in the terms a person judges: the
 * Command's lines before and after, a new program, the network, a wider sandbox profile (as the
 * policy compares profiles), more environment, and each script's own lines removed and added (a
 * unified diff, bounded) — with a script that starts downloading marked as one that may do more.
 */
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { structuredPatch } from 'diff';
import type { FileChange, SkillChangeReport, ScannedSkill, ScriptChange, TextDiff, ToolChange } from '../../shared/packs.js';
import { downloads } from './content-rules.js';
import { isText, type PackScan, type PolicyView } from './scan.js';

/** Most lines of one diff shown; the rest are counted ("… N more lines"). */
export const MAX_DIFF_LINES = 40;
/** Larger files are not diffed line by line. */
const MAX_DIFF_BYTES = 1024 * 1024;

/** The two folders an update compares: the installed pack (null when gone) and the new version. */
export interface PackDirs {
  before: string | null;
  after: string;
}

/** Which lines a bounded diff keeps first: added ones, then hunk headers, removed ones, context. */
const KEEP_FIRST = (line: string): number => (line.startsWith('+') ? 0 : line.startsWith('@@') ? 1 : line.startsWith('-') ? 2 : 3);

/**
 * A unified diff of two texts (null: the file is not there), bounded to MAX_DIFF_LINES in their
 * order; past the bound, added lines are kept before anything else, so what the new version will
 * run is never crowded out by lines it removes or rewrites.
 */
export function textDiff(before: string | null, after: string | null): TextDiff {
  const patch = structuredPatch('before', 'after', before ?? '', after ?? '', '', '', { context: 2 });
  const all = patch.hunks.flatMap((h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines.filter((l) => !l.startsWith('\\'))]);
  if (all.length <= MAX_DIFF_LINES) return { lines: all, more: 0, omitted: null };
  const order = all.map((line, index) => ({ line, index })).sort((a, b) => KEEP_FIRST(a.line) - KEEP_FIRST(b.line) || a.index - b.index);
  const kept = new Set(order.slice(0, MAX_DIFF_LINES).map((l) => l.index));
  return { lines: all.filter((_, index) => kept.has(index)), more: all.length - MAX_DIFF_LINES, omitted: null };
}

type Side = { text: string | null; omitted: TextDiff['omitted'] };

/** A file of a pack as text: a link as `-> target`, nothing when it is absent, not text or too large. */
function readSide(dir: string | null, digest: string | undefined, rel: string): Side {
  if (dir === null || digest === undefined) return { text: null, omitted: null };
  const abs = join(dir, rel);
  try {
    if (digest.startsWith('link:') || lstatSync(abs).isSymbolicLink()) return { text: `-> ${readlinkSync(abs)}\n`, omitted: null };
    if (lstatSync(abs).size > MAX_DIFF_BYTES) return { text: null, omitted: 'too large' };
    const bytes = readFileSync(abs);
    return isText(bytes) ? { text: bytes.toString('utf8'), omitted: null } : { text: null, omitted: 'binary' };
  } catch {
    return { text: null, omitted: null };
  }
}

/** Files of one skill (paths inside it) that differ between two scans. */
function fileChanges(skill: string, before: Record<string, string>, after: Record<string, string>): FileChange[] {
  const prefix = `${skill}/`;
  const inSkill = (files: Record<string, string>) =>
    new Map(
      Object.entries(files)
        .filter(([p]) => p.startsWith(prefix))
        .map(([p, h]) => [p.slice(prefix.length), h]),
    );
  const a = inSkill(before);
  const b = inSkill(after);
  const out: FileChange[] = [];
  for (const [path, hash] of b)
    if (!a.has(path)) out.push({ path, change: 'added' });
    else if (a.get(path) !== hash) out.push({ path, change: 'changed' });
  for (const path of a.keys()) if (!b.has(path)) out.push({ path, change: 'removed' });
  return out.sort((x, y) => (x.path < y.path ? -1 : 1));
}

/** A changed script with its lines, and whether it now downloads. */
function scriptChange(file: FileChange, skill: string, before: PackScan, after: PackScan, dirs: PackDirs): ScriptChange {
  const rel = `${skill}/${file.path}`;
  const was = readSide(dirs.before, before.files[rel], rel);
  const now = readSide(dirs.after, after.files[rel], rel);
  const omitted = was.omitted ?? now.omitted;
  const diff = omitted !== null ? { lines: [], more: 0, omitted } : textDiff(was.text, now.text);
  const mayDoMore = now.text !== null && downloads(now.text) && (was.text === null || !downloads(was.text));
  return { ...file, diff, mayDoMore };
}

function toolChanges(before: ScannedSkill | null, after: ScannedSkill | null, policy: PolicyView): ToolChange[] {
  const a = new Map((before?.tools ?? []).map((t) => [t.name, t]));
  const b = new Map((after?.tools ?? []).map((t) => [t.name, t]));
  const names = [...new Set([...a.keys(), ...b.keys()])].sort();
  return names.map((name) => {
    const was = a.get(name) ?? null;
    const now = b.get(name) ?? null;
    const newProgram = now !== null && (was === null || was.program !== now.program) ? now.program : null;
    const newEnv = now === null ? [] : now.env.filter((e) => !(was?.env ?? []).includes(e));
    const wider =
      now !== null &&
      (was === null
        ? now.network || now.env.length > 0 || now.profileName !== 'read-only'
        : policy.widens(
            { name: now.profileName, network: now.network, hosts: now.hosts, text: now.profile },
            { name: was.profileName, network: was.network, hosts: was.hosts, text: was.profile },
          ));
    const change =
      was === null
        ? 'added'
        : now === null
          ? 'removed'
          : was.command !== now.command || was.profile !== now.profile || was.network !== now.network || newEnv.length > 0 || was.env.length !== now.env.length
            ? 'changed'
            : 'unchanged';
    const commandBefore = was?.command ?? null;
    const commandAfter = now?.command ?? null;
    return {
      name,
      change,
      commandBefore,
      commandAfter,
      commandDiff:
        commandBefore === commandAfter
          ? null
          : textDiff(commandBefore === null ? null : `${commandBefore}\n`, commandAfter === null ? null : `${commandAfter}\n`),
      newProgram,
      profileBefore: was?.profile ?? null,
      profileAfter: now?.profile ?? null,
      networkBefore: was?.network ?? null,
      networkAfter: now?.network ?? null,
      newEnv,
      widened: wider || newProgram !== null || newEnv.length > 0,
    };
  });
}

/** Skill by skill, what changes from the installed scan `before` to the update's scan `after` (their folders in `dirs`). */
export function diffScans(before: PackScan, after: PackScan, policy: PolicyView, dirs: PackDirs): SkillChangeReport[] {
  const a = new Map(before.skills.map((s) => [s.name, s]));
  const b = new Map(after.skills.map((s) => [s.name, s]));
  const names = [...new Set([...a.keys(), ...b.keys()])].sort();
  return names.map((name) => {
    const was = a.get(name) ?? null;
    const now = b.get(name) ?? null;
    const files = fileChanges(name, before.files, after.files);
    const scripts = new Set([...(was?.scripts ?? []), ...(now?.scripts ?? [])]);
    return {
      name,
      change: was === null ? 'added' : now === null ? 'removed' : was.hash !== now.hash ? 'changed' : 'unchanged',
      hashBefore: was?.hash ?? null,
      hashAfter: now?.hash ?? null,
      tools: toolChanges(was, now, policy),
      scripts: files.filter((f) => scripts.has(f.path)).map((f) => scriptChange(f, name, before, after, dirs)),
      files: files.filter((f) => !scripts.has(f.path)),
    };
  });
}
