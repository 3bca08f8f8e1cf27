/**
 * ADR-001 discover: "which skill solves this?". BM25 over each skill's name, description, tags,
 * tool names and descriptions, and examples (FTS5, porter stemming) is the match signal; the ADR's
 * ranking rules then apply in order: procedure over utility (unless a utility is asked for), stable
 * over experimental over the rest, an exact tag match over a text match, and read-only skills
 * first for read-only intents. Sidecars are never recommended for a direct call.
 */
import Database from 'better-sqlite3';
import type { DiscoverResult } from '../../shared/agent.js';
import type { Mode, Role, Skill } from '../../shared/model.js';
import { isOffered } from '../policy/modes.js';
import { queryTokens, quoteToken } from '../search/query.js';
import { TOKENIZE_CLAUSE, tokenizerPreference } from '../search/tokenizer.js';

/** A candidate less than half as relevant as the best is an incidental word overlap: the ADR's rules order real matches first. */
export const WEAK_MATCH_SHARE = 0.5;

/** Column weights for bm25(): a hit in the name or a tag says more than one in an example. */
const WEIGHTS = { name: 4, tags: 3, description: 2, tools: 2, examples: 1 };

/** Words that carry no intent; left out of the query so they cannot make every skill "match". */
const STOPWORDS = new Set(
  'a an and are as at be by can could do does for from get give how i in into is it its let me my of on or our please show some tell that the their them this to us want we what when where which who why will with would you your'.split(' '),
);

/** Intents that only look: read_only skills come first for them (rule 4). */
const READ_ONLY_INTENT = /^(show|list|what|which|who|where|when|how|is|are|does|do|did|check|find|search|look|see|view|display|read|count|print|tell|give|get|inspect|describe|explain|summari[sz]e|compare|why)\b/i;
const WRITING_INTENT = /\b(delete|remove|create|write|send|commit|push|install|uninstall|kill|stop|restart|update|change|set|rename|move|deploy|post|upload|format|reset)\b/i;

const ROLE_RANK: Record<Role, number> = { procedure: 2, utility: 1, sidecar: 0 };

export interface DiscoverOptions {
  domain?: string | string[];
  roleFilter?: Role;
  limit?: number;
}

interface Indexed {
  signature: string;
  db: Database.Database;
  skills: Map<string, Skill>;
}

/** True when an intent only asks to look at something. */
export function isReadOnlyIntent(intent: string): boolean {
  return READ_ONLY_INTENT.test(intent.trim()) && !WRITING_INTENT.test(intent);
}

function statusRank(status: string | null): number {
  if (status === 'stable') return 2;
  if (status === 'experimental') return 1;
  return 0;
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
    db.exec(`CREATE VIRTUAL TABLE skills USING fts5(skill UNINDEXED, name, tags, description, tools, examples, tokenize='${tokenize}')`);
    const insert = db.prepare('INSERT INTO skills (skill, name, tags, description, tools, examples) VALUES (?, ?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (const s of skills) {
        insert.run(
          s.name,
          s.name.replace(/-/g, ' '),
          [...s.tags, ...s.domain].join(' '),
          s.description,
          s.tools.map((t) => `${t.name.replace(/_/g, ' ')} ${t.description}`).join('\n'),
          s.tools.map((t) => t.examples ?? '').join('\n'),
        );
      }
    })();
    this.indexed = { signature, db, skills: new Map(skills.map((s) => [s.name, s])) };
    return this.indexed;
  }

  /** Ranked skills for an intent, best first; sidecars only when asked for by role_filter. */
  discover(intent: string, skills: readonly Skill[], mode: Mode, options: DiscoverOptions = {}): DiscoverResult[] {
    const words = queryTokens(intent.toLowerCase())
      .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
      .filter((w) => w !== '' && !STOPWORDS.has(w));
    if (words.length === 0) return [];
    const { db, skills: byName } = this.index(skills.filter((s) => s.state !== 'error'));
    const w = WEIGHTS;
    const rows = db
      .prepare(`SELECT skill, -bm25(skills, 0, ${w.name}, ${w.tags}, ${w.description}, ${w.tools}, ${w.examples}) AS score FROM skills WHERE skills MATCH ?`)
      .all(words.map(quoteToken).join(' OR ')) as { skill: string; score: number }[];

    const domains = options.domain === undefined ? null : (Array.isArray(options.domain) ? options.domain : [options.domain]).map((d) => d.toLowerCase());
    const readOnlyIntent = isReadOnlyIntent(intent);
    const best = Math.max(0, ...rows.map((r) => r.score));
    const candidates = rows.flatMap((row) => {
      const skill = byName.get(row.skill);
      if (!skill || !isOffered(skill, mode)) return [];
      const role = skill.classification?.role ?? null;
      if (options.roleFilter !== undefined ? role !== options.roleFilter : role === 'sidecar') return [];
      if (domains !== null && !skill.domain.some((d) => domains.includes(d.toLowerCase()))) return [];
      const tags = skill.tags.map((t) => t.toLowerCase());
      const tagHits = words.filter((word) => tags.includes(word));
      const strong = row.score >= best * WEAK_MATCH_SHARE;
      const effect = skill.classification?.effectMode ?? null;
      const keys = [
        strong ? 1 : 0,
        // Rule 1: procedure over utility, unless utilities were asked for (then role_filter already narrowed the set).
        role === null ? 0 : ROLE_RANK[role],
        statusRank(skill.status),
        tagHits.length > 0 ? 2 : 1,
        // Rule 4 follows effect_mode; an unclassified skill falls back to its read_only flag.
        readOnlyIntent && (effect === 'read_only' || (effect === null && skill.readOnly)) ? 1 : 0,
      ];
      const relevance = best > 0 ? row.score / best : 0;
      const reason = [
        strong ? 'matches the intent' : 'matches the intent weakly',
        role ?? 'unclassified',
        skill.status ?? 'no status',
        tagHits.length > 0 ? `tag ${tagHits.map((t) => `'${t}'`).join(', ')}` : 'text match',
        ...(readOnlyIntent && keys[4] === 1 ? ['read-only for a read-only request'] : []),
        `relevance ${relevance.toFixed(2)}`,
      ].join('; ');
      return [{ skill, keys, relevance, reason, role, effect }];
    });

    candidates.sort((a, b) => {
      for (let i = 0; i < a.keys.length; i++) {
        const d = (b.keys[i] as number) - (a.keys[i] as number);
        if (d !== 0) return d;
      }
      return b.relevance - a.relevance || (a.skill.name < b.skill.name ? -1 : 1);
    });
    return candidates.slice(0, options.limit ?? 10).map((c) => ({
      skill_id: c.skill.name,
      name: c.skill.name,
      // Monotone with the rule order: each rule is a digit, the BM25 relevance the fraction.
      score: Number((c.keys.reduce((acc, k) => acc * 10 + k, 0) + c.relevance).toFixed(4)),
      role: c.role,
      effect_mode: c.effect,
      reason: c.reason,
      tools: c.skill.tools.map((t) => t.name),
    }));
  }

  close(): void {
    this.indexed?.db.close();
    this.indexed = null;
  }
}
