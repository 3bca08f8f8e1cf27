/** What `check` prints of a diagnostic's broken formats. */
import { FORMAT_NAMES, type SkillFormat } from '../../shared/model.js';

/** Human names of the formats a diagnostic breaks, for text output. */
export function formatNames(breaks: readonly SkillFormat[]): string {
  return breaks.length === 0 ? 'Skilltray rule' : breaks.map((f) => FORMAT_NAMES[f]).join(', ');
}
