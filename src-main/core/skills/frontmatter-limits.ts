/**
 * How big and how deep a frontmatter may be. The size is checked before anything reads the text;
 * the depth in one pass over it before the yaml library sees it: an 800 KB flow nested 400,000
 * levels deep (`[[[[…`) costs a YAML parser seconds and half a gigabyte, and this scan a
 * millisecond. The depth counted is the nesting YAML would build: indentation levels, `- ` and `? `
 * entries that open a level on their line, and flow brackets; quoted text, comments and block
 * scalars (`|`, `>`) count for nothing. Plain YAML (plain-yaml.ts, most frontmatter) is read
 * without the scan: that reader declines whatever could nest deeper than the limit.
 */

/** Characters a frontmatter may hold (a skill's metadata, not a data file). */
export const MAX_FRONTMATTER_CHARS = 64 * 1024;

/** Levels of nesting a frontmatter may have (a skill's deepest field, metadata.kode.requires.bins, has four). */
export const MAX_FRONTMATTER_DEPTH = 64;

/** Why `yaml` is refused before anything reads it, as the end of a sentence, or null when it is within the size limit. */
export function frontmatterOverSize(yaml: string): { message: string; line: number } | null {
  if (yaml.length <= MAX_FRONTMATTER_CHARS) return null;
  return { message: `the frontmatter is ${yaml.length} characters; Skilltray reads at most ${MAX_FRONTMATTER_CHARS} (refused before parsing)`, line: 2 };
}

/** Why `yaml` (within the size limit) is refused before the yaml library sees it, as the end of a sentence, or null when it is within the depth limit. */
export function frontmatterOverDepth(yaml: string): { message: string; line: number } | null {
  const deepest = nesting(yaml);
  if (deepest.depth > MAX_FRONTMATTER_DEPTH) {
    return { message: `the frontmatter nests ${deepest.depth > 10 * MAX_FRONTMATTER_DEPTH ? `more than ${10 * MAX_FRONTMATTER_DEPTH}` : deepest.depth} levels deep; Skilltray reads at most ${MAX_FRONTMATTER_DEPTH} (refused before parsing)`, line: deepest.line };
  }
  return null;
}

/** The deepest nesting in `yaml` and the line (1-based, of the input) where it is first reached; stops counting once far past the limit. */
export function nesting(yaml: string): { depth: number; line: number } {
  const stop = 10 * MAX_FRONTMATTER_DEPTH + 1;
  let deepest = { depth: 0, line: 1 };
  const note = (depth: number, line: number): boolean => {
    if (depth > deepest.depth) deepest = { depth, line };
    return deepest.depth >= stop;
  };
  /** Indentations of the block levels open at the current line. */
  const indents: number[] = [];
  let flow = 0;
  let quote: '"' | "'" | null = null;
  /** While inside a block scalar: the indentation its content must exceed. */
  let scalarAbove: number | null = null;
  const lines = yaml.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const text = lines[n] as string;
    const line = n + 1;
    let i = 0;
    while (text[i] === ' ') i++;
    const blank = i === text.length || text[i] === '#';
    if (scalarAbove !== null) {
      if (blank || i > scalarAbove) continue;
      scalarAbove = null;
    }
    let depth = indents.length;
    if (quote === null && flow === 0 && !blank) {
      while (indents.length > 0 && (indents[indents.length - 1] as number) >= i) indents.pop();
      indents.push(i);
      depth = indents.length;
      // `- - - x` and `? ` open a level each on the same line.
      while ((text[i] === '-' || text[i] === '?') && (text[i + 1] === ' ' || i + 1 === text.length)) {
        depth++;
        i += 2;
        while (text[i] === ' ') i++;
      }
      if (note(depth, line)) return deepest;
    }
    for (; i < text.length; i++) {
      const c = text[i];
      if (quote !== null) {
        if (c === '\\' && quote === '"') i++;
        else if (c === quote) {
          if (quote === "'" && text[i + 1] === "'") i++;
          else quote = null;
        }
        continue;
      }
      if (c === '"' || c === "'") quote = c;
      else if (c === '#' && (i === 0 || text[i - 1] === ' ' || text[i - 1] === '\t')) break;
      else if (c === '[' || c === '{') {
        flow++;
        if (note(depth + flow, line)) return deepest;
      } else if ((c === ']' || c === '}') && flow > 0) flow--;
      else if ((c === '|' || c === '>') && flow === 0 && /^[|>][-+0-9]*\s*(#.*)?$/.test(text.slice(i))) {
        scalarAbove = indents[indents.length - 1] ?? 0;
        break;
      }
    }
  }
  return deepest;
}
