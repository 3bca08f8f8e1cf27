/**
 * Markdown (and a frontmatter block) as the plain text a person reads, for the all-skills catalog:
 * its snippets show words, not `#`, fences, table pipes, backticks, link targets or YAML brackets.
 * Line by line and lossless for words: only markup goes, so every word a search can match stays.
 */

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^\s{0,3}#{1,6}(\s+|$)/;
const CLOSING_HASHES = /\s+#+\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const THEMATIC_BREAK = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const BLOCKQUOTE = /^\s{0,3}(>\s?)+/;
const TASK_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+\[[ xX]\]\s+/;
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+/;

/** A character every inline markup below needs: most lines hold none and are kept as they are, unscanned. */
const INLINE_MARKUP = /[[<`*_~\\]/;

/** Inline markup of one line: code spans, emphasis markers, links and images, escapes. */
export function plainInline(line: string): string {
  if (!INLINE_MARKUP.test(line)) return line;
  return (
    line
      // Images and links keep their text; the target is not something a person reads in a snippet.
      .replace(/!?\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)/g, '$1')
      .replace(/!?\[([^\]]+)\]\[[^\]]*\]/g, '$1')
      .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
      .replace(/`+/g, '')
      .replace(/(\*\*|__)(?=\S)([^]*?\S)\1/g, '$2')
      .replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g, '$1$2')
      .replace(/~~(?=\S)([^]*?\S)~~/g, '$1')
      .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1')
  );
}

/** A YAML line as text: `key: [a, b]` → `key: a, b`, quotes and list dashes gone. */
function plainYaml(line: string): string {
  return line
    .replace(/^(\s*)-\s+/, '$1')
    .replace(/[[\]{}]/g, '')
    .replace(/(^|[\s:,])["']|["'](?=$|[\s,])/g, '$1')
    .replace(/\s+$/, '');
}

/** A table row's cells joined by a middle dot. */
function plainRow(line: string): string {
  const cells = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => plainInline(cell.trim()))
    .filter((cell) => cell !== '');
  return cells.join(' · ');
}

/** One line outside a fence and a frontmatter block as plain text, or null for a line that is only markup (a table rule, a break). */
function plainLine(line: string): string | null {
  if (TABLE_RULE.test(line) && line.includes('-')) return null;
  if (THEMATIC_BREAK.test(line)) return null;
  if (HEADING.test(line)) return plainInline(line.replace(HEADING, '').replace(CLOSING_HASHES, ''));
  let text = line.replace(BLOCKQUOTE, '');
  if (/^\s*\|/.test(text)) return plainRow(text);
  text = text.replace(TASK_ITEM, '$1• ').replace(LIST_ITEM, '$1• ');
  return plainInline(text);
}

/**
 * The plain text of a Markdown document or section; a leading `---` frontmatter block reads as
 * `key: value` lines. `memo` keeps each line's plain form for the next call over the same file: a
 * skill's nested sections hold the same lines several times over.
 */
export function plainText(markdown: string, memo?: Map<string, string | null>): string {
  const out: string[] = [];
  const lines = markdown.split('\n');
  let fence: string | null = null;
  let yaml = lines[0]?.trim() === '---';
  lines.forEach((line, index) => {
    if (yaml) {
      if (index > 0 && (line.trim() === '---' || line.trim() === '...')) yaml = false;
      else if (index > 0) out.push(plainYaml(line));
      return;
    }
    const fenceMark = FENCE.exec(line);
    if (fence !== null) {
      if (fenceMark && fenceMark[1]?.[0] === fence[0] && (fenceMark[1]?.length ?? 0) >= fence.length && line.trim() === fenceMark[1]) fence = null;
      else out.push(line);
      return;
    }
    if (fenceMark) {
      fence = fenceMark[1] as string;
      return;
    }
    let plain = memo?.get(line);
    if (plain === undefined) {
      plain = plainLine(line);
      memo?.set(line, plain);
    }
    if (plain !== null) out.push(plain);
  });
  return out.join('\n');
}

/** Text on one line: every run of whitespace (line ends included) becomes one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The first sentence of a Markdown text as plain text on one line, cut at `max` characters: a description in a list. */
export function firstSentence(text: string, max = 160): string {
  const line = oneLine(plainInline(text));
  const end = /[.!?](?=\s|$)/.exec(line);
  const sentence = end === null ? line : line.slice(0, end.index + 1);
  return sentence.length <= max ? sentence : `${sentence.slice(0, max - 1).trimEnd()}…`;
}
