/**
 * A SKILL.md's frontmatter as JSON, read from its bytes as the loader reads them: what a Skills
 * extension entry carries (`frontmatter`, verbatim) and what a host compares it with, field by field.
 */
import { DiagnosticList } from './diagnostics.js';
import { parseFrontmatter } from './frontmatter-yaml.js';
import { decodeSkillText } from './skill-file.js';

/** The frontmatter of the SKILL.md whose bytes these are, as JSON (a value JSON cannot hold becomes what JSON makes of it); null when it has none. */
export function frontmatterJson(bytes: Buffer): Record<string, unknown> | null {
  const text = decodeSkillText(bytes);
  if (!text.ok) return null;
  const parsed = parseFrontmatter(text.text, 'SKILL.md', new DiagnosticList());
  return parsed === null ? null : (JSON.parse(JSON.stringify(parsed.data)) as Record<string, unknown>);
}
