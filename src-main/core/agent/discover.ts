/**
 * ADR-001 discover: "which skill solves this?". Each skill gets a relevance from 0 to 1: the share
 * of the intent's words it contains, each word weighted by how rare it is among the skills and by
 * where it was found (name or tag over description over body), counting the skill's own fields
 * together with its best-matching tool. The ADR's ranking rules then weigh in, in order, as factors
 * that each outweigh every rule below them: procedure over utility, stable over experimental over
 * the rest, an exact tag match, read-only skills for read-only intents. Sidecars are never
 * recommended for a direct call.
 */
import Database from 'better-sqlite3';
import type { DiscoverResult } from '../../shared/agent.js';
import type { Mode, Role, Skill } from '../../shared/model.js';
import { isOffered } from '../policy/modes.js';
import { queryTokens, quoteToken } from '../search/query.js';
import { STOPWORDS } from '../search/stopwords.js';
import { TOKENIZE_CLAUSE, tokenizerPreference } from '../search/tokenizer.js';

/** How much a word found in each of a skill's fields says about the skill doing the job. */
const SKILL_FIELDS = { name: 1, tags: 1, description: 0.8, body: 0.15 } as const;
/** The same for a tool's fields; a tool adds to its own skill's fields, never to another's. */
const TOOL_FIELDS = { name: 1, description: 0.8, params: 0.5, examples: 0.6 } as const;

/**
 * The ADR's rules as factors on the relevance. Each rule's penalty is larger than all the rules
 * below it together (0.74 < 0.81·0.95·0.97), so at equal relevance the order is the ADR's, and only
 * a clearly better match can overcome a rule.
 */
export const RANK_FACTORS = {
  /** Rule 1: a utility after a procedure. */
  utility: 0.74,
  /** Rule 1, and a skill with no role at all. See `outdone` in discover(). */
  procedureOutdone: 0.55,
  unclassified: 0.55,
  /** Rule 2: stable 1, experimental, anything else. */
  experimental: 0.9,
  otherStatus: 0.81,
  /** Rule 3: no exact tag match. */
  noTag: 0.95,
  /** Rule 4: not read-only for a read-only intent. */
  notReadOnly: 0.97,
} as const;

/** Intents that only look: read_only skills come first for them (rule 4). */
const READ_ONLY_INTENT =
  /^(show|list|what|which|who|where|when|how|is|are|does|do|did|check|find|search|look|see|view|display|read|count|print|tell|give|get|inspect|describe|explain|summari[sz]e|compare|why)\b/i;
const WRITING_INTENT =
  /\b(delete|remove|create|write|send|commit|push|install|uninstall|kill|stop|restart|update|change|set|rename|move|deploy|post|upload|format|reset)\b/i;

export interface DiscoverOptions {
  domain?: string | string[];
  roleFilter?: Role;
  limit?: number;
}

interface Indexed {
  signature: string;
  db: Database.Database;
  skills: Map<string, Skill>;
  /** The rowids of the rows a MATCH expression finds, in each table; rows map back through the arrays below. */
  skillRows: Database.Statement<[string], number>;
  toolRows: Database.Statement<[string], number>;
  /** Skill name by `skills` rowid, and skill and tool by `tools` rowid. */
  skillOfRow: string[];
  toolOfRow: { skill: string; tool: string }[];
  /** Each skill's tags folded to singular, for rule 3. */
  tagSingulars: Map<string, Set<string>>;
}

/** The fields holding a word in one skill or tool: the best field's weight, and how many fields. */
interface Found {
  max: number;
  count: number;
}

/** Where one intent word was found: per skill in the skill's own fields, and per skill and tool in the tool's. */
interface WordHits {
  word: string;
  idf: number;
  inSkill: Map<string, Found>;
  inTool: Map<string, Map<string, Found>>;
}

/** Adds one field of `weight` to what a word found. */
function note(found: Found | undefined, weight: number): Found {
  if (found === undefined) return { max: weight, count: 1 };
  found.max = Math.max(found.max, weight);
  found.count++;
  return found;
}

/** True when an intent only asks to look at something. */
export function isReadOnlyIntent(intent: string): boolean {
  return READ_ONLY_INTENT.test(intent.trim()) && !WRITING_INTENT.test(intent);
}

/** A plural folded to its singular, so the word "commits" meets the tag "commit" (and "branches" "branch"). */
function singular(word: string): string {
  return word.replace(/(?<=(?:s|x|z|ch|sh))es$/, '').replace(/(?<!s)s$/, '');
}

/** The intent's content words: split as a search query, contractions and edge punctuation off, stopwords out. */
function intentWords(intent: string): string[] {
  const words = queryTokens(intent.toLowerCase())
    .map((w) => w.replace(/['’](?:s|re|ll|t|ve|d|m)$/u, '').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((w) => w !== '' && !STOPWORDS.has(w));
  return [...new Set(words)];
}

function statusFactor(status: string | null): number {
  if (status === 'stable') return 1;
  return status === 'experimental' ? RANK_FACTORS.experimental : RANK_FACTORS.otherStatus;
}

/** A skill that matched, on its way to a result. */
interface Candidate {
  skill: Skill;
  role: Role | null;
  relevance: number;
  /** How many of the skill's fields hold the intent's words (rarity-weighted): a tie-breaker. */
  spread: number;
  /** The tool its best match went through, if a tool added to it. */
  tool: string | null;
  score: number;
  outdone: boolean;
  tagHits: string[];
  readOnlyMatch: boolean;
}

const NOTHING: Found = { max: 0, count: 0 };

/** What a word found in the skill's own fields and in one of its tools. */
function fieldsOf(h: WordHits, skill: string, tool: string | null): { own: Found; inTool: Found } {
  return { own: h.inSkill.get(skill) ?? NOTHING, inTool: tool === null ? NOTHING : (h.inTool.get(skill)?.get(tool) ?? NOTHING) };
}

/**
 * The skill's fields with each of its tools in turn (or alone): the best of these is its match.
 * Ties go to the one holding the words in more fields, then to the one whose tool matched more.
 */
function bestUnit(hits: readonly WordHits[], skill: Skill, total: number): Pick<Candidate, 'relevance' | 'spread' | 'tool'> {
  let best = { relevance: 0, spread: 0, toolWords: 0, tool: null as string | null };
  for (const tool of skill.tools.length > 0 ? skill.tools.map((t) => t.name) : [null]) {
    let relevance = 0;
    let spread = 0;
    let toolWords = 0;
    for (const h of hits) {
      const { own, inTool } = fieldsOf(h, skill.name, tool);
      if (own.count + inTool.count === 0) continue;
      relevance += (h.idf * Math.max(own.max, inTool.max)) / total;
      spread += h.idf * (own.count + inTool.count);
      if (inTool.count > 0) toolWords++;
    }
    if (relevance > best.relevance || (relevance === best.relevance && (spread > best.spread || (spread === best.spread && toolWords > best.toolWords)))) {
      best = { relevance, spread, toolWords, tool: toolWords > 0 ? tool : null };
    }
  }
  return { relevance: best.relevance, spread: best.spread, tool: best.tool };
}

/** Words in quotes joined as a sentence says them: “a”, “b” and “c”. */
function quotedList(words: readonly string[]): string {
  const quoted = words.map((w) => `“${w}”`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1] as string}`;
}

/** What each role means to a person choosing. */
const ROLE_WORDS: Record<Role, string> = { procedure: 'does the whole job', utility: 'a building block', sidecar: 'checks or enriches a target' };

/**
 * Why a candidate ranked where it did, in plain words and in the order the rules apply: what it
 * mentions (and through which tool), what kind of skill it is, its tags, whether it only reads.
 */
function reason(c: Candidate, hits: readonly WordHits[]): string {
  const found = hits.filter((h) => {
    const { own, inTool } = fieldsOf(h, c.skill.name, c.tool);
    return own.count + inTool.count > 0;
  });
  const status = c.skill.status === 'stable' || c.skill.status === 'experimental' ? `${c.skill.status}, ` : '';
  const kind = c.outdone ? 'a guide to the job, after the tool that does it' : c.role === null ? 'not classified' : `${status}${ROLE_WORDS[c.role]}`;
  return [
    `mentions ${quotedList(found.map((h) => h.word))}${c.tool === null ? '' : ` (tool ${c.tool})`}`,
    kind,
    ...(c.tagHits.length > 0 ? [`tagged ${quotedList(c.tagHits)}`] : []),
    ...(c.readOnlyMatch ? ['only reads, as asked'] : []),
  ].join('; ');
}

/** The skills-level search index, rebuilt only when the set of loaded skills changes. */
export class Discovery {
  private indexed: Indexed | null = null;

  constructor(private readonly nativeBinding?: string) {}

  private index(skills: readonly Skill[]): Indexed {
    const signature = skills.map((s) => `${s.name}@${s.hash}`).join('\n');
    if (this.indexed?.signature === signature) return this.indexed;
    this.indexed?.db.close();
    const db = new Database(':memory:', this.nativeBinding === undefined ? {} : { nativeBinding: this.nativeBinding });
    const tokenize = TOKENIZE_CLAUSE[tokenizerPreference(this.nativeBinding)];
    db.exec(`CREATE VIRTUAL TABLE skills USING fts5(${Object.keys(SKILL_FIELDS).join(', ')}, tokenize='${tokenize}')`);
    db.exec(`CREATE VIRTUAL TABLE tools USING fts5(${Object.keys(TOOL_FIELDS).join(', ')}, tokenize='${tokenize}')`);
    const insertSkill = db.prepare('INSERT INTO skills (rowid, name, tags, description, body) VALUES (?, ?, ?, ?, ?)');
    const insertTool = db.prepare('INSERT INTO tools (rowid, name, description, params, examples) VALUES (?, ?, ?, ?, ?)');
    const skillOfRow: string[] = [];
    const toolOfRow: { skill: string; tool: string }[] = [];
    db.transaction(() => {
      for (const s of skills) {
        insertSkill.run(skillOfRow.push(s.name) - 1, s.name.replace(/-/g, ' '), [...s.tags, ...s.domain].join(' '), s.description, s.body);
        for (const t of s.tools) {
          const params = t.params.map((p) => `${p.name.replace(/_/g, ' ')} ${p.description}`).join('\n');
          insertTool.run(toolOfRow.push({ skill: s.name, tool: t.name }) - 1, t.name.replace(/_/g, ' '), t.description, params, t.examples ?? '');
        }
      }
    })();
    this.indexed = {
      signature,
      db,
      skills: new Map(skills.map((s) => [s.name, s])),
      skillRows: db.prepare<[string], number>('SELECT rowid FROM skills WHERE skills MATCH ?').pluck(),
      toolRows: db.prepare<[string], number>('SELECT rowid FROM tools WHERE tools MATCH ?').pluck(),
      skillOfRow,
      toolOfRow,
      tagSingulars: new Map(skills.map((s) => [s.name, new Set(s.tags.map((t) => singular(t.toLowerCase())))])),
    };
    return this.indexed;
  }

  /** Where each word occurs, and how rare it is: idf = ln(1 + skills / skills containing it). */
  private hits(indexed: Indexed, words: readonly string[]): WordHits[] {
    return words.map((word) => {
      const inSkill = new Map<string, Found>();
      const inTool = new Map<string, Map<string, Found>>();
      for (const [column, weight] of Object.entries(SKILL_FIELDS)) {
        for (const row of indexed.skillRows.all(`{${column}} : ${quoteToken(word)}`)) {
          const skill = indexed.skillOfRow[row] as string;
          inSkill.set(skill, note(inSkill.get(skill), weight));
        }
      }
      for (const [column, weight] of Object.entries(TOOL_FIELDS)) {
        for (const row of indexed.toolRows.all(`{${column}} : ${quoteToken(word)}`)) {
          const { skill, tool } = indexed.toolOfRow[row] as { skill: string; tool: string };
          const tools = inTool.get(skill) ?? new Map<string, Found>();
          tools.set(tool, note(tools.get(tool), weight));
          inTool.set(skill, tools);
        }
      }
      const containing = new Set([...inSkill.keys(), ...inTool.keys()]).size;
      return { word, idf: Math.log(1 + indexed.skills.size / Math.max(containing, 1)), inSkill, inTool };
    });
  }

  /** Ranked skills for an intent, best first; sidecars only when asked for by role_filter. */
  discover(intent: string, skills: readonly Skill[], mode: Mode, options: DiscoverOptions = {}): DiscoverResult[] {
    const words = intentWords(intent);
    if (words.length === 0) return [];
    const indexed = this.index(skills.filter((s) => s.state !== 'error'));
    const hits = this.hits(indexed, words);
    const total = hits.reduce((sum, h) => sum + h.idf, 0);

    const domains = options.domain === undefined ? null : (Array.isArray(options.domain) ? options.domain : [options.domain]).map((d) => d.toLowerCase());
    const matched = new Set(hits.flatMap((h) => [...h.inSkill.keys(), ...h.inTool.keys()]));
    const candidates: Candidate[] = [];
    for (const name of matched) {
      const skill = indexed.skills.get(name);
      if (!skill || !isOffered(skill, mode)) continue;
      const role = skill.classification?.role ?? null;
      if (options.roleFilter !== undefined ? role !== options.roleFilter : role === 'sidecar') continue;
      if (domains !== null && !skill.domain.some((d) => domains.includes(d.toLowerCase()))) continue;
      const best = bestUnit(hits, skill, total);
      if (best.relevance > 0) candidates.push({ skill, role, ...best, score: 0, outdone: false, tagHits: [], readOnlyMatch: false });
    }

    const top = Math.max(0, ...candidates.map((c) => c.relevance));
    // The utility that does the job: the best strong match among utilities that have tools to do it with.
    const doesTheJob = Math.max(
      0,
      ...candidates.filter((c) => c.role === 'utility' && c.skill.tools.length > 0 && c.relevance >= top / 2).map((c) => c.relevance),
    );
    const intentSingulars = words.map(singular);
    const readOnlyIntent = isReadOnlyIntent(intent);
    for (const c of candidates) {
      const { skill, role } = c;
      // Rule 1 puts a procedure first because it does the whole job; one without tools (a prompt or
      // a guide) only describes it, so it goes after a utility whose tool matches at least as well,
      // unless the intent names the procedure itself ("write a commit message").
      const named = skill.name.split('-').every((part) => intentSingulars.includes(singular(part)));
      c.outdone = role === 'procedure' && skill.tools.length === 0 && c.relevance <= doesTheJob && !named;
      const roleFactor = role === null ? RANK_FACTORS.unclassified : role === 'utility' ? RANK_FACTORS.utility : c.outdone ? RANK_FACTORS.procedureOutdone : 1;
      const tags = indexed.tagSingulars.get(skill.name) ?? new Set<string>();
      c.tagHits = words.filter((_, i) => tags.has(intentSingulars[i] as string));
      const effect = skill.classification?.effectMode ?? null;
      // Rule 4 follows effect_mode; an unclassified skill falls back to its read_only flag.
      c.readOnlyMatch = readOnlyIntent && (effect === 'read_only' || (effect === null && skill.readOnly));
      c.score =
        c.relevance *
        roleFactor *
        statusFactor(skill.status) *
        (c.tagHits.length > 0 ? 1 : RANK_FACTORS.noTag) *
        (readOnlyIntent && !c.readOnlyMatch ? RANK_FACTORS.notReadOnly : 1);
    }

    candidates.sort((a, b) => b.score - a.score || b.relevance - a.relevance || b.spread - a.spread || (a.skill.name < b.skill.name ? -1 : 1));
    return candidates.slice(0, options.limit ?? 10).map((c) => ({
      skill_id: c.skill.name,
      name: c.skill.name,
      score: round(c.score),
      relevance: round(c.relevance),
      role: c.role,
      effect_mode: c.skill.classification?.effectMode ?? null,
      reason: reason(c, hits),
      tools: c.skill.tools.map((t) => t.name),
    }));
  }

  close(): void {
    this.indexed?.db.close();
    this.indexed = null;
  }
}

const round = (n: number): number => Math.round(n * 1000) / 1000;
