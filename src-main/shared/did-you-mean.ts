/**
 * "Did you mean": the suggestions an error carries for an unknown name (`details.did_you_mean`),
 * and the one way every surface says them (the CLI, MCP's error text, the UI).
 */

/** A name the caller may have meant. */
export interface NameSuggestion {
  /** The name to ask for: a command, a skill (its folder's name), a tool. */
  name: string;
  /** For a skill: its folder. */
  dir?: string;
  /** For a skill found by the name its SKILL.md declares, which differs from its folder's: that declared name. */
  declared_name?: string;
}

/** The suggestions in an error's details, when it has any. */
export function suggestionsOf(details: Record<string, unknown> | undefined): NameSuggestion[] {
  const list = details?.did_you_mean;
  if (!Array.isArray(list)) return [];
  return list.filter((s): s is NameSuggestion => typeof s === 'object' && s !== null && typeof (s as NameSuggestion).name === 'string');
}

function said(s: NameSuggestion): string {
  if (s.declared_name === undefined) return `'${s.name}'`;
  return `'${s.name}' (its SKILL.md says name: ${s.declared_name}; folder ${s.dir ?? s.name})`;
}

/** `did you mean 'git'?`, `did you mean 'git' or 'gh'?`, or null when there is nothing to suggest. */
export function didYouMeanText(details: Record<string, unknown> | undefined): string | null {
  const suggestions = suggestionsOf(details);
  if (suggestions.length === 0) return null;
  return `did you mean ${suggestions.map(said).join(' or ')}?`;
}

/** An error's line with its suggestion after it: `error[E001]: skill 'gti' not found; did you mean 'git'?`. */
export function withDidYouMean(line: string, details: Record<string, unknown> | undefined): string {
  const hint = didYouMeanText(details);
  return hint === null ? line : `${line}; ${hint}`;
}
