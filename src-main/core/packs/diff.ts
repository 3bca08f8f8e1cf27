/**
 * What an update changes, skill by skill and tool by tool, in the terms a person judges: the
 * Command before and after, a new program, the network, a wider sandbox profile (as the policy
 * compares profiles), more environment, and the scripts and other files that changed.
 */
import type { SkillChangeReport, ScannedSkill, ToolChange } from '../../shared/packs.js';
import type { PackScan, PolicyView } from './scan.js';

type FileChange = { path: string; change: 'added' | 'removed' | 'changed' };

/** Files of one skill (paths inside it) that differ between two scans. */
function fileChanges(skill: string, before: Record<string, string>, after: Record<string, string>): FileChange[] {
  const prefix = `${skill}/`;
  const inSkill = (files: Record<string, string>) => new Map(Object.entries(files).filter(([p]) => p.startsWith(prefix)).map(([p, h]) => [p.slice(prefix.length), h]));
  const a = inSkill(before);
  const b = inSkill(after);
  const out: FileChange[] = [];
  for (const [path, hash] of b) if (!a.has(path)) out.push({ path, change: 'added' });
  else if (a.get(path) !== hash) out.push({ path, change: 'changed' });
  for (const path of a.keys()) if (!b.has(path)) out.push({ path, change: 'removed' });
  return out.sort((x, y) => (x.path < y.path ? -1 : 1));
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
        : policy.widens({ name: now.profileName, network: now.network, hosts: now.hosts, text: now.profile }, { name: was.profileName, network: was.network, hosts: was.hosts, text: was.profile }));
    const change = was === null ? 'added' : now === null ? 'removed' : was.command !== now.command || was.profile !== now.profile || was.network !== now.network || newEnv.length > 0 || was.env.length !== now.env.length ? 'changed' : 'unchanged';
    return {
      name,
      change,
      commandBefore: was?.command ?? null,
      commandAfter: now?.command ?? null,
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

/** Skill by skill, what changes from the installed scan `before` to the update's scan `after`. */
export function diffScans(before: PackScan, after: PackScan, policy: PolicyView): SkillChangeReport[] {
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
      scripts: files.filter((f) => scripts.has(f.path)),
      files: files.filter((f) => !scripts.has(f.path)),
    };
  });
}
