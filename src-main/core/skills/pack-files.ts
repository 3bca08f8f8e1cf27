/**
 * Which entries make a folder a skill: `SKILL.md`, or a gibb.eri.sh tool pack (`*.tool.json`, or
 * gibb's `toolpack.json`) when the folder has no SKILL.md (docs/skill-format.md, tool packs).
 */

/** Whether `name` is a tool pack's file name. */
export function isPackFile(name: string): boolean {
  return (name.endsWith('.tool.json') && name.length > '.tool.json'.length) || name === 'toolpack.json';
}

/** Whether an entry of this name in a folder makes the folder a skill to read (SKILL.MD too: the parse reports it misnamed, E422). */
export function isSkillEntry(name: string): boolean {
  return name.toLowerCase() === 'skill.md' || isPackFile(name);
}
