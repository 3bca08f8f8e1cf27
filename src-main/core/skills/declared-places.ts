/**
 * Declarations that reach a place no run may read (core/files/secret-places.ts): a `reads:` entry
 * (E433) or a Command's program written as an absolute path (E434) that is such a place, lies in one
 * or holds one, Skilltray's home included. Either makes the skill an error, so none of its tools run
 * and `check`, `list`, the skill browser and the pack scan say why. Judged against what is known of
 * this machine: with only the platform, the path as written (every conventional home folder, a
 * hidden secret at any depth, Skilltray's default home); in a library, the person's home and
 * Skilltray's home as configured too. The box refuses such a bind again at run time, by real path.
 */
import type { Diagnostic, Skill } from '../../shared/model.js';
import { isInside } from '../files/paths.js';
import { reachText, secretReach, type KnownPlaces } from '../files/secret-places.js';
import { parseCommand } from '../template/parse-command.js';
import { DiagnosticList } from './diagnostics.js';

/** A Command that may start with an absolute program (`/…`, or quoted): only those are looked at. */
const ABSOLUTE_START = /^\s*["']?\//;

/** The program of `command` when it is written literally as an absolute path, else null (a relative one lies in the skill). */
function absoluteProgram(command: string, syntax: Skill['syntax']): string | null {
  if (!ABSOLUTE_START.test(command)) return null;
  try {
    const parts = parseCommand(command, syntax).tokens[0]?.parts ?? [];
    const program = parts.map((part) => (part.kind === 'text' ? part.value : '\0')).join('');
    return program.startsWith('/') && !program.includes('\0') ? program : null;
  } catch {
    return null; // the loader's E420 says why it does not parse
  }
}

/** The E433 and E434 diagnostics of `skill` against `places`; none for a skill that declares no such thing. */
export function declaredSecrets(skill: Pick<Skill, 'box' | 'tools' | 'file' | 'dir' | 'syntax'>, places: KnownPlaces): Diagnostic[] {
  const diags = new DiagnosticList();
  for (const entry of skill.box.reads) {
    const reach = secretReach(entry, places);
    if (reach === null) continue;
    const fix = reach.relation === 'holds' ? 'name the files inside it the tool needs' : 'a skill cannot declare its way to secrets; the person can take it out of the sandbox instead';
    diags.add('E433', `reads entry '${entry}' ${reachText(reach)}, which no run may read: ${fix}`, skill.file, skill.box.readsLine ?? 1);
  }
  for (const tool of skill.tools) {
    const program = absoluteProgram(tool.command, skill.syntax);
    if (program === null) continue;
    const reach = secretReach(program, places);
    // A skill kept in Skilltray's home may name its own file; what the box binds over it is the approved copy.
    if (reach === null || reach.relation === 'holds' || (reach.skilltray && isInside(skill.dir, program))) continue;
    diags.add('E434', `tool ${tool.name}: the program '${program}' ${reachText(reach)}, which no run may read or run`, skill.file, tool.commandLine);
  }
  return diags.items;
}
