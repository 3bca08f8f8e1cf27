/**
 * The index discover ranks from: every skill's name, tags, description, headings and body (less the
 * templates many bodies share word for word, shared-passages.ts), and each tool's name,
 * description, parameters and examples, in in-memory FTS5 tables (porter stemming).
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
import { withoutSharedPassages } from './shared-passages.js';

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
/** How many terms' holding counts an index keeps (see `DiscoverIndex.rarity`). */
const MOST_COUNTS_KEPT = 20_000;
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

/**
 * Where one intent term was found, in arrays by skill (its index in `DiscoverIndex.skills`) and by
 * tool (its index in `DiscoverIndex.tools`): typed arrays, so weighing thousands of candidates is
 * arithmetic rather than look-ups by name.
 */
export interface TermHits {
  term: Term;
  /** How much the term says: its rarity, ln(1 + skills / skills holding it), each of those counted by the weight of the field it is in. */
  weight: number;
  /** The weight of the best of the skill's own fields that holds the term (0: none). */
  own: Float64Array;
  /** How many of the skill's own fields hold it. */
  ownFields: Uint8Array;
  /** The same for each tool's fields; a tool adds to its own skill's fields, never to another's. */
  tool: Float64Array;
  toolFields: Uint8Array;
  /** The skills holding it in their own fields or a tool's, each once. */
  holders: number[];
  /** 1 for a skill whose body holds this term near another of the intent's terms. */
  near: Uint8Array;
  /** The skill's BM25 for the term over all its fields, each weighed as in SKILL_FIELDS (negative, the lowest the best; 0: none), for `strengths`. */
  whole: Float64Array;
}

/** A tool as discover sees it: its skill (by index) and its name. */
export interface IndexedTool {
  skill: number;
  name: string;
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

/** A skill's own fields as indexed, its body without the passages many skills share (shared-passages.ts); `grams` cuts their unspaced runs into pairs. */
function skillFields(s: Skill, body: string, grams: boolean): string[] {
  const text = (t: string): string => (grams ? unspacedGrams(t) : t);
  return [text(s.name.replace(/[-_]/g, ' ')), text([...s.tags, ...s.domain].join(' ')), text(s.description), text(headingTexts(body).join('\n')), text(body)];
}

export class DiscoverIndex {
  /** The skills indexed, each at its row in the tables (rowid = index). */
  readonly skills: Skill[];
  /** Every skill's tools, one after another: skill i's are `tools[firstTool[i]]` up to `tools[firstTool[i + 1]]`. */
  readonly tools: IndexedTool[] = [];
  readonly firstTool: Int32Array;
  private readonly db: Database.Database;
  private readonly skillRows: Database.Statement<[string], number>;
  private readonly gramRows: Database.Statement<[string], number>;
  private readonly toolRows: Database.Statement<[string], number>;
  private readonly anyRow: Database.Statement<[string], number>;
  private readonly skillCount: Database.Statement<[string], number>;
  private readonly gramCount: Database.Statement<[string], number>;
  private readonly scores: Database.Statement<[string], [number, number, number]>;
  private readonly knownForms = new Map<string, boolean>();
  /** How many skills hold each term's forms, by its FTS5 expression: a pasted page asks for hundreds, the common ones the costliest to count. */
  private readonly holdingCounts = new Map<string, number>();
  /** Each skill's body length against the average, as a factor on what its body and headings hold. */
  private readonly bodyFactor: Float64Array;
  /** Each skill's name and hash when indexed: the same list again reuses the index. */
  private readonly names: string[];
  private readonly hashes: string[];

  constructor(skills: readonly Skill[], nativeBinding?: string) {
    this.skills = [...skills];
    this.names = skills.map((s) => s.name);
    this.hashes = skills.map((s) => s.hash);
    this.firstTool = new Int32Array(skills.length + 1);
    this.db = new Database(':memory:', nativeBinding === undefined ? {} : { nativeBinding });
    const tokenize = TOKENIZE_CLAUSE[tokenizerPreference(nativeBinding)];
    const skillColumns = Object.keys(SKILL_FIELDS).join(', ');
    this.db.exec(`CREATE VIRTUAL TABLE skills USING fts5(${skillColumns}, tokenize='${tokenize}')`);
    this.db.exec(`CREATE VIRTUAL TABLE grams USING fts5(${skillColumns}, tokenize='unicode61')`);
    this.db.exec(`CREATE VIRTUAL TABLE tools USING fts5(${Object.keys(TOOL_FIELDS).join(', ')}, tokenize='${tokenize}')`);
    const slots = Object.keys(SKILL_FIELDS).map(() => '?');
    const insertSkill = this.db.prepare(`INSERT INTO skills (rowid, ${skillColumns}) VALUES (?, ${slots.join(', ')})`);
    const insertGrams = this.db.prepare(`INSERT INTO grams (rowid, ${skillColumns}) VALUES (?, ${slots.join(', ')})`);
    const insertTool = this.db.prepare('INSERT INTO tools (rowid, name, description, params, examples) VALUES (?, ?, ?, ?, ?)');
    const bodies = withoutSharedPassages(skills.map((s) => s.body));
    this.db.transaction(() => {
      for (const [row, s] of skills.entries()) {
        const body = bodies[row] as string;
        insertSkill.run(row, ...skillFields(s, body, false));
        // Only skills holding an unspaced run need the pair index: a rare script costs nothing elsewhere.
        const text = `${s.description}\n${s.body}\n${s.tags.join(' ')}`;
        if (MAYBE_UNSPACED.test(text) && hasUnspacedRun(text)) insertGrams.run(row, ...skillFields(s, body, true));
        this.firstTool[row] = this.tools.length;
        for (const t of s.tools) {
          const params = t.params.map((p) => `${p.name.replace(/_/g, ' ')} ${p.description}`).join('\n');
          insertTool.run(this.tools.push({ skill: row, name: t.name }) - 1, t.name.replace(/_/g, ' '), t.description, params, t.examples ?? '');
        }
      }
      this.firstTool[skills.length] = this.tools.length;
    })();
    const average = bodies.reduce((sum, body) => sum + body.length, 0) / Math.max(skills.length, 1) || 1;
    this.bodyFactor = Float64Array.from(bodies, (body) => Math.min((1 + K1) / (1 + K1 * (1 - B + (B * body.length) / average)), MOST_FOR_A_SHORT_BODY));
    this.skillRows = this.db.prepare<[string], number>('SELECT rowid FROM skills WHERE skills MATCH ?').pluck();
    this.gramRows = this.db.prepare<[string], number>('SELECT rowid FROM grams WHERE grams MATCH ?').pluck();
    this.toolRows = this.db.prepare<[string], number>('SELECT rowid FROM tools WHERE tools MATCH ?').pluck();
    // The whole skill's BM25 weighs each field as the share does (BM25F-like): unweighted, the body, most of a skill's words, would decide it.
    this.scores = this.db
      .prepare<[string], [number, number, number]>(
        `SELECT rowid, bm25(skills, 0, 0, 0, 0, 1), bm25(skills, ${Object.values(SKILL_FIELDS).join(', ')}) FROM skills WHERE skills MATCH ?`,
      )
      .raw();
    this.anyRow = this.db.prepare<[string], number>('SELECT rowid FROM skills WHERE skills MATCH ? LIMIT 1').pluck();
    this.skillCount = this.db.prepare<[string], number>('SELECT count(*) FROM skills WHERE skills MATCH ?').pluck();
    this.gramCount = this.db.prepare<[string], number>('SELECT count(*) FROM grams WHERE grams MATCH ?').pluck();
  }

  /**
   * Whether this index was built from these skills (the same names and hashes, in order): then it
   * takes the new objects, so their state is current, and is used again.
   */
  reuseFor(skills: readonly Skill[]): boolean {
    if (skills.length !== this.names.length) return false;
    for (let i = 0; i < skills.length; i++) {
      const s = skills[i] as Skill;
      if (s.name !== this.names[i] || s.hash !== this.hashes[i]) return false;
    }
    for (let i = 0; i < skills.length; i++) this.skills[i] = skills[i] as Skill;
    return true;
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

  /** How rare a term is, ln(1 + skills / skills holding it anywhere), 0 when none does: a first guess, before `hits` weighs where they hold it. */
  rarity(term: Term): number {
    const expression = `(${term.forms.map(quoteToken).join(' OR ')})`;
    const key = term.unspaced ? `grams ${expression}` : expression;
    let holding = this.holdingCounts.get(key);
    if (holding === undefined) {
      holding = (term.unspaced ? this.gramCount : this.skillCount).get(expression) ?? 0;
      // Bounded: the words of many pages may pass through one index.
      if (this.holdingCounts.size >= MOST_COUNTS_KEPT) this.holdingCounts.clear();
      this.holdingCounts.set(key, holding);
    }
    return holding === 0 ? 0 : Math.log(1 + this.skills.length / holding);
  }

  /** Where a term occurs, and how much it says (see TermHits.weight). */
  hits(term: Term): TermHits {
    const n = this.skills.length;
    const hits: TermHits = {
      term,
      weight: 0,
      own: new Float64Array(n),
      ownFields: new Uint8Array(n),
      tool: new Float64Array(this.tools.length),
      toolFields: new Uint8Array(this.tools.length),
      holders: [],
      near: new Uint8Array(n),
      whole: new Float64Array(n),
    };
    const { own, ownFields, tool, toolFields, holders } = hits;
    const held = new Uint8Array(n);
    const hold = (skill: number): void => {
      if (held[skill] === 0) {
        held[skill] = 1;
        holders.push(skill);
      }
    };
    const noteOwn = (skill: number, weight: number): void => {
      own[skill] = Math.max(own[skill] as number, weight);
      (ownFields[skill] as number)++;
      hold(skill);
    };
    const expression = `(${term.forms.map(quoteToken).join(' OR ')})`;
    const rows = term.unspaced ? this.gramRows : this.skillRows;
    for (const [column, weight] of Object.entries(SKILL_FIELDS)) {
      if (column === 'body' && !term.unspaced) continue;
      const diluted = column === 'headings' || column === 'body';
      for (const row of rows.all(`{${column}} : ${expression}`)) noteOwn(row, diluted ? weight * (this.bodyFactor[row] as number) : weight);
    }
    if (!term.unspaced) {
      // bm25() is negative, the best the lowest; weighed on the body alone it is 0 where the body does not hold the term.
      const scored = this.scores.all(expression);
      let best = 0;
      for (const [, body] of scored) best = Math.min(best, body);
      for (const [row, body, whole] of scored) {
        hits.whole[row] = whole;
        if (body < 0) noteOwn(row, Math.max(BODY_LEAST, (BODY_MOST * body) / best));
      }
      for (const [column, weight] of Object.entries(TOOL_FIELDS)) {
        for (const row of this.toolRows.all(`{${column}} : ${expression}`)) {
          tool[row] = Math.max(tool[row] as number, weight);
          (toolFields[row] as number)++;
          hold((this.tools[row] as IndexedTool).skill);
        }
      }
    }
    // Skills count by where they hold the term: boilerplate that every skill of one owner repeats in
    // its body ("open the URL") is common there, not in what the skills are about.
    let holding = 0;
    for (const skill of holders) {
      let most = own[skill] as number;
      for (let t = this.firstTool[skill] as number; t < (this.firstTool[skill + 1] as number); t++) most = Math.max(most, tool[t] as number);
      holding += most;
    }
    hits.weight = Math.log(1 + n / Math.max(holding, 1));
    return hits;
  }

  /**
   * How strongly each skill's text holds the intent's words together: BM25 over all its fields, a word
   * in the name counting more than one in the body as SKILL_FIELDS weighs them (how often, against its
   * length; a sum over the terms, as one query for them all would score it), as a
   * share of the skill that holds them most. Null when the intent has no words (only unspaced runs,
   * which this does not measure).
   */
  strengths(hits: readonly TermHits[]): Float64Array | null {
    const words = hits.filter((h) => !h.term.unspaced);
    if (words.length === 0) return null;
    const strength = new Float64Array(this.skills.length);
    let best = 0;
    for (const h of words) {
      for (const skill of h.holders) {
        strength[skill] = (strength[skill] as number) + (h.whole[skill] as number);
        best = Math.min(best, strength[skill] as number);
      }
    }
    for (const [skill, score] of strength.entries()) if (score < 0) strength[skill] = score / best;
    return strength;
  }

  /** The factor a skill's body length puts on what its body holds. */
  diluted(skill: number): number {
    return this.bodyFactor[skill] ?? 1;
  }

  /** Notes, for each pair of terms, the skills whose body holds the two a few words apart. */
  noteNearness(hits: readonly TermHits[]): void {
    const words = hits
      .filter((h) => !h.term.unspaced)
      .sort((a, b) => b.weight - a.weight)
      .slice(0, NEAR_TERMS);
    for (const [i, a] of words.entries()) {
      for (const b of words.slice(i + 1)) {
        // Only skills holding both in their own fields can hold them near each other in the body.
        if (!a.holders.some((skill) => (a.ownFields[skill] as number) > 0 && (b.ownFields[skill] as number) > 0)) continue;
        for (const fa of a.term.forms.slice(0, NEAR_FORMS)) {
          for (const fb of b.term.forms.slice(0, NEAR_FORMS)) {
            for (const row of this.skillRows.all(`{body} : NEAR(${quoteToken(fa)} ${quoteToken(fb)}, ${NEAR_WORDS})`)) {
              a.near[row] = 1;
              b.near[row] = 1;
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
