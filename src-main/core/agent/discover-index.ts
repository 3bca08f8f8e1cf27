/**
 * The index discover ranks from: every skill's name, tags, description, headings and body, and each
 * tool's name, description, parameters and examples, in in-memory FTS5 tables (porter stemming).
 * Text in an unspaced script (Chinese, Japanese, …) is indexed a second time cut into pairs of
 * characters, as search does (search/unspaced-text.ts), so a word inside a run is found.
 * Rebuilt only when the set of skills changes.
 */
import Database from 'better-sqlite3';
import type { Skill } from '../../shared/model.js';
import { quoteToken } from '../search/query.js';
import { TOKENIZE_CLAUSE, tokenizerPreference } from '../search/tokenizer.js';
import { hasUnspacedRun, unspacedGrams } from '../search/unspaced-text.js';
import type { Term } from './intent-terms.js';

/**
 * How much a word found in each of a skill's fields says about the skill doing the job. The body's
 * is a most: a word weighs by how often and how prominently the body holds it (BODY_LEAST to
 * BODY_MOST, see `hits`), and a pair in an unspaced run by this weight.
 */
export const SKILL_FIELDS = { name: 1, tags: 1, description: 0.8, headings: 0.5, body: 0.15 } as const;
/** The same for a tool's fields; a tool adds to its own skill's fields, never to another's. */
export const TOOL_FIELDS = { name: 1, description: 0.8, params: 0.5, examples: 0.6 } as const;
/**
 * A word in the body weighs by its BM25 there (how often, against the body's length) relative to the
 * skill whose body holds it most: from BODY_MOST for that one down to BODY_LEAST for a passing mention.
 */
const BODY_MOST = 0.4;
const BODY_LEAST = 0.05;
/** A term found in the body a few words from another of the intent's terms ("a short link for a URL") says as much as a heading. */
export const BODY_NEAR = 0.5;
/**
 * How much a long body dilutes its headings and its words near each other, as BM25 has it (k1 1.2,
 * b 0.75): in a body of average length they weigh as their field says, in one five times as long
 * 0.38 as much, in a short one up to 1.4 times (a long guide mentions everything somewhere; an
 * action list says what it does).
 */
const K1 = 1.2;
const B = 0.75;
const MOST_FOR_A_SHORT_BODY = 1.4;
/** How many words may stand between two terms for them to be near. */
const NEAR_WORDS = 8;
/** How many of a term's forms a nearness check tries (each pair of forms is one query). */
const NEAR_FORMS = 3;
/** How many of the intent's terms, the rarest, are checked for nearness: pairs grow as their square. */
const NEAR_TERMS = 8;

/** The fields holding a word in one skill or tool: the best field's weight, and how many fields. */
export interface Found {
  max: number;
  count: number;
}

/** Where one intent term was found: per skill in the skill's own fields, and per skill and tool in the tool's. */
export interface TermHits {
  term: Term;
  /** How much the term says: its rarity, ln(1 + skills / skills holding it), each of those counted by the weight of the field it is in. */
  weight: number;
  inSkill: Map<string, Found>;
  inTool: Map<string, Map<string, Found>>;
  /** The skills whose body holds this term near another of the intent's terms. */
  nearBody: Set<string>;
}

/** Adds one field of `weight` to what a term found. */
function note(found: Found | undefined, weight: number): Found {
  if (found === undefined) return { max: weight, count: 1 };
  found.max = Math.max(found.max, weight);
  found.count++;
  return found;
}

/** A character of an unspaced script's main blocks (Thai to Myanmar, Khmer, kana, CJK, Hangul): a cheap test before the exact one. */
const MAYBE_UNSPACED = /[\u0E00-\u0EFF\u1000-\u109F\u1780-\u17FF\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uD840-\uD87F]/;
/** An ATX heading line, `#` to `######`. */
const ATX = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The text of a body's ATX headings, outside fenced code (a `# comment` in a shell block is not a
 * heading). A line scan: marked's full parse costs seconds over thousands of skills, and setext
 * headings (text underlined with `===`) are too rare in skills to pay for.
 */
export function headingTexts(body: string): string[] {
  const texts: string[] = [];
  let fence: string | null = null;
  for (let start = 0; start < body.length;) {
    let end = body.indexOf('\n', start);
    if (end === -1) end = body.length;
    const line = body.slice(start, end);
    start = end + 1;
    const marker = FENCE.exec(line)?.[1];
    if (marker !== undefined && (fence === null || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === null ? marker : null;
      continue;
    }
    if (fence === null && line.includes('#')) {
      const heading = ATX.exec(line)?.[1];
      if (heading !== undefined && heading !== '') texts.push(heading);
    }
  }
  return texts;
}

/** A skill's own fields as indexed; `grams` cuts their unspaced runs into pairs. */
function skillFields(s: Skill, grams: boolean): string[] {
  const text = (t: string): string => (grams ? unspacedGrams(t) : t);
  return [
    text(s.name.replace(/[-_]/g, ' ')),
    text([...s.tags, ...s.domain].join(' ')),
    text(s.description),
    text(headingTexts(s.body).join('\n')),
    text(s.body),
  ];
}

export class DiscoverIndex {
  readonly skills: Map<string, Skill>;
  private readonly db: Database.Database;
  private readonly skillRows: Database.Statement<[string], number>;
  private readonly gramRows: Database.Statement<[string], number>;
  private readonly toolRows: Database.Statement<[string], number>;
  private readonly anyRow: Database.Statement<[string], number>;
  private readonly bodyScores: Database.Statement<[string], { row: number; score: number }>;
  /** Skill name by `skills` (and `grams`) rowid, and skill and tool by `tools` rowid. */
  private readonly skillOfRow: string[] = [];
  private readonly toolOfRow: { skill: string; tool: string }[] = [];
  private readonly knownForms = new Map<string, boolean>();
  /** Each skill's body length against the average, as a factor on what its body and headings hold. */
  private readonly bodyFactor = new Map<string, number>();

  constructor(
    readonly signature: string,
    skills: readonly Skill[],
    nativeBinding?: string,
  ) {
    this.skills = new Map(skills.map((s) => [s.name, s]));
    this.db = new Database(':memory:', nativeBinding === undefined ? {} : { nativeBinding });
    const tokenize = TOKENIZE_CLAUSE[tokenizerPreference(nativeBinding)];
    const skillColumns = Object.keys(SKILL_FIELDS).join(', ');
    this.db.exec(`CREATE VIRTUAL TABLE skills USING fts5(${skillColumns}, tokenize='${tokenize}')`);
    this.db.exec(`CREATE VIRTUAL TABLE grams USING fts5(${skillColumns}, tokenize='unicode61')`);
    this.db.exec(`CREATE VIRTUAL TABLE tools USING fts5(${Object.keys(TOOL_FIELDS).join(', ')}, tokenize='${tokenize}')`);
    const slots = Object.keys(SKILL_FIELDS).map(() => '?');
    const insertSkill = this.db.prepare(`INSERT INTO skills VALUES (${slots.join(', ')})`);
    const insertGrams = this.db.prepare(`INSERT INTO grams (rowid, ${skillColumns}) VALUES (?, ${slots.join(', ')})`);
    const insertTool = this.db.prepare('INSERT INTO tools (rowid, name, description, params, examples) VALUES (?, ?, ?, ?, ?)');
    this.db.transaction(() => {
      for (const s of skills) {
        const row = insertSkill.run(...skillFields(s, false)).lastInsertRowid as number;
        this.skillOfRow[row] = s.name;
        // Only skills holding an unspaced run need the pair index: a rare script costs nothing elsewhere.
        const text = `${s.description}\n${s.body}\n${s.tags.join(' ')}`;
        if (MAYBE_UNSPACED.test(text) && hasUnspacedRun(text)) insertGrams.run(row, ...skillFields(s, true));
        for (const t of s.tools) {
          const params = t.params.map((p) => `${p.name.replace(/_/g, ' ')} ${p.description}`).join('\n');
          insertTool.run(this.toolOfRow.push({ skill: s.name, tool: t.name }) - 1, t.name.replace(/_/g, ' '), t.description, params, t.examples ?? '');
        }
      }
    })();
    const average = skills.reduce((sum, s) => sum + s.body.length, 0) / Math.max(skills.length, 1) || 1;
    for (const s of skills) {
      const factor = (1 + K1) / (1 + K1 * (1 - B + (B * s.body.length) / average));
      this.bodyFactor.set(s.name, Math.min(factor, MOST_FOR_A_SHORT_BODY));
    }
    this.skillRows = this.db.prepare<[string], number>('SELECT rowid FROM skills WHERE skills MATCH ?').pluck();
    this.gramRows = this.db.prepare<[string], number>('SELECT rowid FROM grams WHERE grams MATCH ?').pluck();
    this.toolRows = this.db.prepare<[string], number>('SELECT rowid FROM tools WHERE tools MATCH ?').pluck();
    this.bodyScores = this.db.prepare<[string], { row: number; score: number }>(
      'SELECT rowid AS row, bm25(skills, 0, 0, 0, 0, 1) AS score FROM skills WHERE skills MATCH ?',
    );
    this.anyRow = this.db.prepare<[string], number>('SELECT rowid FROM skills WHERE skills MATCH ? LIMIT 1').pluck();
  }

  /** Whether some skill holds `form` (a word, or words in a row) anywhere. */
  knows(form: string): boolean {
    let known = this.knownForms.get(form);
    if (known === undefined) {
      known = this.anyRow.get(quoteToken(form)) !== undefined;
      this.knownForms.set(form, known);
    }
    return known;
  }

  /** Where a term occurs, and how much it says (see TermHits.weight). */
  hits(term: Term): TermHits {
    const inSkill = new Map<string, Found>();
    const inTool = new Map<string, Map<string, Found>>();
    const expression = `(${term.forms.map(quoteToken).join(' OR ')})`;
    const rows = term.unspaced ? this.gramRows : this.skillRows;
    for (const [column, weight] of Object.entries(SKILL_FIELDS)) {
      if (column === 'body' && !term.unspaced) continue;
      for (const row of rows.all(`{${column}} : ${expression}`)) {
        const skill = this.skillOfRow[row] as string;
        inSkill.set(skill, note(inSkill.get(skill), column === 'headings' || column === 'body' ? weight * this.diluted(skill) : weight));
      }
    }
    if (!term.unspaced) {
      // bm25() is negative, the best the lowest; only the body column counts in it.
      const scored = this.bodyScores.all(`{body} : ${expression}`);
      const best = scored.reduce((least, r) => Math.min(least, r.score), 0);
      for (const { row, score } of scored) {
        const skill = this.skillOfRow[row] as string;
        inSkill.set(skill, note(inSkill.get(skill), Math.max(BODY_LEAST, (BODY_MOST * score) / best)));
      }
    }
    if (!term.unspaced) {
      for (const [column, weight] of Object.entries(TOOL_FIELDS)) {
        for (const row of this.toolRows.all(`{${column}} : ${expression}`)) {
          const { skill, tool } = this.toolOfRow[row] as { skill: string; tool: string };
          const tools = inTool.get(skill) ?? new Map<string, Found>();
          tools.set(tool, note(tools.get(tool), weight));
          inTool.set(skill, tools);
        }
      }
    }
    // Skills count by where they hold the term: boilerplate that every skill of one owner repeats in
    // its body ("open the URL") is common there, not in what the skills are about.
    let holding = 0;
    for (const skill of new Set([...inSkill.keys(), ...inTool.keys()])) {
      holding += Math.max(inSkill.get(skill)?.max ?? 0, ...[...(inTool.get(skill)?.values() ?? [])].map((found) => found.max));
    }
    return { term, weight: Math.log(1 + this.skills.size / Math.max(holding, 1)), inSkill, inTool, nearBody: new Set() };
  }

  /** The factor a skill's body length puts on what its body holds. */
  diluted(skill: string): number {
    return this.bodyFactor.get(skill) ?? 1;
  }

  /** Notes, for each pair of terms, the skills whose body holds the two a few words apart. */
  noteNearness(hits: readonly TermHits[]): void {
    const words = hits
      .filter((h) => !h.term.unspaced)
      .sort((a, b) => b.weight - a.weight)
      .slice(0, NEAR_TERMS);
    for (const [i, a] of words.entries()) {
      for (const b of words.slice(i + 1)) {
        // Only skills holding both in the body can hold them near each other.
        const both = [...a.inSkill.keys()].filter((skill) => b.inSkill.has(skill));
        if (both.length === 0) continue;
        for (const fa of a.term.forms.slice(0, NEAR_FORMS)) {
          for (const fb of b.term.forms.slice(0, NEAR_FORMS)) {
            for (const row of this.skillRows.all(`{body} : NEAR(${quoteToken(fa)} ${quoteToken(fb)}, ${NEAR_WORDS})`)) {
              const skill = this.skillOfRow[row] as string;
              a.nearBody.add(skill);
              b.nearBody.add(skill);
            }
          }
        }
      }
    }
  }

  close(): void {
    this.db.close();
  }
}
