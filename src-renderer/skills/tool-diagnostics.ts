/** Which of a skill's diagnostics belong to which tool: those in SKILL.md from the tool's heading to the next tool's. */
import type { Diagnostic, Skill } from '../../src-main/shared/model.js';

/** Each tool's diagnostics, by tool name (every tool has an entry). */
export function toolDiagnostics(skill: Pick<Skill, 'file' | 'tools' | 'diagnostics'>): Map<string, Diagnostic[]> {
  const byLine = [...skill.tools].sort((a, b) => a.line - b.line);
  const out = new Map(skill.tools.map((t) => [t.name, [] as Diagnostic[]]));
  for (const diagnostic of skill.diagnostics) {
    if (diagnostic.file !== skill.file) continue;
    const owner = byLine.filter((t) => t.line <= diagnostic.line).pop();
    if (owner) out.get(owner.name)?.push(diagnostic);
  }
  return out;
}
