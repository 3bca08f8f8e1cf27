/**
 * ADR-001 discover: "which skill solves this?". Each skill gets a relevance from 0 to 1: the share
 * of the intent's terms it contains, each weighted by how rare it is among the skills and by where
 * it was found (name or tag over description over headings over body), counting the skill's own
 * fields together with its best-matching tool. The ADR's ranking rules then weigh in, in order, on
 * the skills that declare what they read: procedure over utility, stable over experimental over the
 * rest, an exact tag match, read-only skills for read-only intents. A skill that declares no
 * classification is ranked by relevance alone, neither favoured nor held back. Sidecars are never
 * recommended for a direct call; when the best match sits in a role the call left out, `also` says so.
 */
import type { DiscoverAnswer, DiscoverResult } from '../../shared/agent.js';
import type { Mode, Role, Skill } from '../../shared/model.js';
import { isOffered } from '../policy/modes.js';
import { BODY_NEAR, DiscoverIndex, type IndexedTool, type TermHits } from './discover-index.js';
import { intentTerms } from './intent-terms.js';

/**
 * The ADR's rules as factors on the relevance. Each rule's penalty is larger than all the rules
 * below it together (0.74 < 0.81·0.95·0.97), so at equal relevance the order is the ADR's, and only
 * a clearly better match can overcome a rule. The rules weigh only on skills that declare what
 * they read (a classification, a status or tags): a skill that declares none of it is ranked by its
 * relevance alone, and no classified skill scores above it at equal relevance.
 */
export const RANK_FACTORS = {
  /** Rule 1: a utility after a procedure. */
  utility: 0.74,
  /** Rule 1: a procedure without tools after the utility that does the job (see `outdone` below). */
  procedureOutdone: 0.55,
  /** Rule 2: stable 1, experimental, any other status (or none, on a skill that declares a classification). */
  experimental: 0.9,
  otherStatus: 0.81,
  /** Rule 3: no exact tag match. */
  noTag: 0.95,
  /** Rule 4: not read-only for a read-only intent. */
  notReadOnly: 0.97,
  /** A skill with tools that loaded with errors: it can be read, but its tools do not run, so a working skill goes first unless clearly less relevant. */
  errors: 0.5,
} as const;

/** Errors that leave a skill's description and body as written: such a skill can still be read. */
const READABLE_ERRORS: ReadonlySet<string> = new Set([
  'E405',
  'E406',
  'E407',
  'E408',
  'E409',
  'E410',
  'E411',
  'E412',
  'E413',
  'E414',
  'E415',
  'E416',
  'E417',
  'E419',
  'E420',
  'E421',
  'E425',
  'E430',
  'E431',
  'E432',
]);

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

/** True when an intent only asks to look at something. */
export function isReadOnlyIntent(intent: string): boolean {
  return READ_ONLY_INTENT.test(intent.trim()) && !WRITING_INTENT.test(intent);
}

/** The codes of a skill's errors; null when one of them leaves nothing to read. */
function readableErrors(skill: Skill): string[] | null {
  const codes = [...new Set(skill.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code))];
  return codes.every((code) => READABLE_ERRORS.has(code)) ? codes : null;
}

/** Whether a skill declares any of what the ADR's rules read (a classification, a status, tags): only those are weighed by them. */
function declaresDiscovery(skill: Skill): boolean {
  return skill.classification !== null || skill.status !== null || skill.tags.length > 0;
}

/** A plural folded to its singular, so the word "commits" meets the tag "commit" (and "branches" "branch"). */
function singular(word: string): string {
  return word.replace(/(?<=(?:s|x|z|ch|sh))es$/, '').replace(/(?<!s)s$/, '');
}

function statusFactor(status: string | null): number {
  if (status === 'stable') return 1;
  return status === 'experimental' ? RANK_FACTORS.experimental : RANK_FACTORS.otherStatus;
}

/** A skill that matched, on its way to a result. */
interface Candidate {
  /** Its index in the DiscoverIndex. */
  at: number;
  skill: Skill;
  role: Role | null;
  errors: string[];
  relevance: number;
  /** The share of the intent it holds, before the strength weighs in (see STRENGTH). */
  share: number;
  /** How many of the skill's fields hold the intent's terms (rarity-weighted): a tie-breaker. */
  spread: number;
  /** The tool its best match went through (its index in the DiscoverIndex), if a tool added to it. */
  tool: number | null;
  score: number;
  outdone: boolean;
  tagHits: string[];
  readOnlyMatch: boolean;
}

/**
 * The skill's fields with each of its tools in turn (or alone): the best of these is its match.
 * Ties go to the one holding the terms in more fields, then to the one whose tool matched more.
 */
function bestUnit(hits: readonly TermHits[], index: DiscoverIndex, skill: number, total: number): Pick<Candidate, 'relevance' | 'spread' | 'tool'> {
  const near = BODY_NEAR * index.diluted(skill);
  const first = index.firstTool[skill] as number;
  const end = index.firstTool[skill + 1] as number;
  let best = { relevance: 0, spread: 0, toolWords: 0, tool: null as number | null };
  // With no tools the skill is weighed alone: -1 stands for no tool.
  for (let tool = first < end ? first : -1; tool < end; tool = tool === -1 ? end : tool + 1) {
    let relevance = 0;
    let spread = 0;
    let toolWords = 0;
    for (const h of hits) {
      const ownFields = h.ownFields[skill] as number;
      const toolFields = tool === -1 ? 0 : (h.toolFields[tool] as number);
      if (ownFields + toolFields === 0) continue;
      const own = h.near[skill] === 1 ? Math.max(h.own[skill] as number, near) : (h.own[skill] as number);
      // Each field beyond the best adds a little: a term in the name, the description and the body is surer than in one of them.
      const more = Math.min(1, Math.max(own, tool === -1 ? 0 : (h.tool[tool] as number)) + ALSO_IN_ANOTHER_FIELD * (ownFields + toolFields - 1));
      relevance += (h.weight * more) / total;
      spread += h.weight * (ownFields + toolFields);
      if (toolFields > 0) toolWords++;
    }
    if (relevance > best.relevance || (relevance === best.relevance && (spread > best.spread || (spread === best.spread && toolWords > best.toolWords)))) {
      best = { relevance, spread, toolWords, tool: toolWords > 0 ? tool : null };
    }
  }
  return { relevance: best.relevance, spread: best.spread, tool: best.tool };
}

/** Whether a candidate holds a term, in its own fields or in the tool it matched through. */
function holds(h: TermHits, c: Candidate): boolean {
  return (h.ownFields[c.at] as number) > 0 || (c.tool !== null && (h.toolFields[c.tool] as number) > 0);
}

/** Words in quotes joined as a sentence says them: “a”, “b” and “c”. */
function quotedList(words: readonly string[]): string {
  const quoted = words.map((w) => `“${w}”`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1] as string}`;
}

/** The terms a candidate holds as a reader says them: pairs of an unspaced run that follow each other joined back. */
function foundWords(c: Candidate, hits: readonly TermHits[]): string[] {
  const words: string[] = [];
  let previous: TermHits | null = null;
  for (const [i, h] of hits.entries()) {
    const found = holds(h, c);
    if (found && h.term.unspaced && previous?.term.unspaced && hits[i - 1] === previous) {
      words[words.length - 1] += [...h.term.word].slice(1).join('');
    } else if (found) words.push(h.term.word);
    previous = found ? h : null;
  }
  return words;
}

/** What each role means to a person choosing. */
const ROLE_WORDS: Record<Role, string> = { procedure: 'does the whole job', utility: 'a building block', sidecar: 'checks or enriches a target' };

/**
 * Why a candidate ranked where it did, in plain words and in the order the rules apply: what it
 * mentions (and through which tool), what kind of skill it is, its tags, whether it only reads, its errors.
 */
function reason(c: Candidate, hits: readonly TermHits[], index: DiscoverIndex): string {
  const status = c.skill.status === 'stable' || c.skill.status === 'experimental' ? `${c.skill.status}, ` : '';
  const kind = c.outdone ? 'a guide to the job, after the tool that does it' : c.role === null ? 'not classified' : `${status}${ROLE_WORDS[c.role]}`;
  return [
    `mentions ${quotedList(foundWords(c, hits))}${c.tool === null ? '' : ` (tool ${(index.tools[c.tool] as IndexedTool).name})`}`,
    kind,
    ...(c.tagHits.length > 0 ? [`tagged ${quotedList(c.tagHits)}`] : []),
    ...(c.readOnlyMatch ? ['only reads, as asked'] : []),
    ...(c.errors.length > 0 ? [`loaded with errors (${c.errors.join(', ')}): read it, its tools do not run`] : []),
  ].join('; ');
}

/** Best first: by score, then relevance, then how many fields hold the terms, then name. */
const byScore = (a: Candidate, b: Candidate): number =>
  b.score - a.score || b.relevance - a.relevance || b.spread - a.spread || (a.skill.name < b.skill.name ? -1 : 1);

/**
 * The `keep` best candidates by score, each weighed by the ADR's rules (see RANK_FACTORS). A score
 * is never above its relevance, so candidates are weighed in order of relevance until the next one
 * could not reach the last kept: over thousands of weak matches, only the strong few are weighed.
 */
function ranked(candidates: Candidate[], terms: readonly TermHits[], intent: string, keep: number): Candidate[] {
  let top = 0;
  // The utility that does the job: the best strong match among utilities that have tools to do it with.
  let doesTheJob = 0;
  for (const c of candidates) top = Math.max(top, c.share);
  for (const c of candidates) if (c.role === 'utility' && c.skill.tools.length > 0 && c.share >= top / 2) doesTheJob = Math.max(doesTheJob, c.share);
  const words = terms.map((h) => h.term.word);
  const intentSingulars = words.map(singular);
  const readOnlyIntent = isReadOnlyIntent(intent);
  const weigh = (c: Candidate): void => {
    const { skill, role } = c;
    // Rule 1 puts a procedure first because it does the whole job; one without tools (a prompt or
    // a guide) only describes it, so it goes after a utility whose tool matches at least as well,
    // unless the intent names the procedure itself ("write a commit message").
    const named = skill.name.split('-').every((part) => intentSingulars.includes(singular(part)));
    c.outdone = role === 'procedure' && skill.tools.length === 0 && c.share <= doesTheJob && !named;
    const roleFactor = role === 'utility' ? RANK_FACTORS.utility : c.outdone ? RANK_FACTORS.procedureOutdone : 1;
    const tags = new Set(skill.tags.map((t) => singular(t.toLowerCase())));
    c.tagHits = words.filter((_, i) => tags.has(intentSingulars[i] as string));
    const effect = skill.classification?.effectMode ?? null;
    // Rule 4 follows effect_mode; a skill without one falls back to its read_only flag.
    c.readOnlyMatch = readOnlyIntent && (effect === 'read_only' || (effect === null && skill.readOnly));
    const rules = declaresDiscovery(skill)
      ? roleFactor *
        statusFactor(skill.status) *
        (c.tagHits.length > 0 ? 1 : RANK_FACTORS.noTag) *
        (readOnlyIntent && !c.readOnlyMatch ? RANK_FACTORS.notReadOnly : 1)
      : 1;
    // Its prose reads as well as any; what the errors cost is its tools.
    c.score = c.relevance * rules * (c.errors.length > 0 && skill.tools.length > 0 ? RANK_FACTORS.errors : 1);
  };
  const byRelevance = [...candidates].sort((a, b) => b.relevance - a.relevance);
  const kept: Candidate[] = [];
  for (const c of byRelevance) {
    const last = kept[kept.length - 1];
    if (kept.length >= keep && last !== undefined) {
      if (c.relevance < last.score) break;
      // At its best (no rule against it) it would still sort after the last kept: ties are decided by relevance, spread, name.
      c.score = c.relevance;
      if (byScore(c, last) > 0) continue;
    }
    weigh(c);
    let at = kept.length;
    while (at > 0 && byScore(c, kept[at - 1] as Candidate) < 0) at--;
    kept.splice(at, 0, c);
    if (kept.length > keep) kept.pop();
  }
  return kept;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

function toResult(c: Candidate, hits: readonly TermHits[], index: DiscoverIndex): DiscoverResult {
  return {
    skill_id: c.skill.name,
    name: c.skill.name,
    score: round(c.score),
    relevance: round(c.relevance),
    role: c.role,
    effect_mode: c.skill.classification?.effectMode ?? null,
    reason: reason(c, hits, index),
    tools: c.errors.length > 0 ? [] : c.skill.tools.map((t) => t.name),
    errors: c.errors,
  };
}

/**
 * How much the strength (BM25 over the skill's whole text, its fields weighed as the share weighs
 * them: how often it holds the words, against its length) weighs in the relevance beside the share
 * of the intent held, which weighs 1: the share says which of the terms a skill holds and where, the
 * strength how much of the skill is about them.
 */
const STRENGTH = 0.5;

/** What each field holding a term adds beyond its best one. */
const ALSO_IN_ANOTHER_FIELD = 0.05;

/** How many results discover gives unless asked for another number. */
const DEFAULT_LIMIT = 10;

/** How many better matches of another role `also` names at most. */
const ALSO_LIMIT = 3;

/** Ranks skills for intents over an index rebuilt only when the set of readable skills changes. */
export class Discovery {
  private indexed: DiscoverIndex | null = null;

  constructor(private readonly nativeBinding?: string) {}

  private index(skills: readonly Skill[]): DiscoverIndex {
    if (this.indexed?.reuseFor(skills)) return this.indexed;
    this.indexed?.close();
    this.indexed = new DiscoverIndex(skills, this.nativeBinding);
    return this.indexed;
  }

  /** Ranked skills for an intent, best first (sidecars only when asked for by role_filter), and better matches of the roles left out. */
  discover(intent: string, skills: readonly Skill[], mode: Mode, options: DiscoverOptions = {}): DiscoverAnswer {
    // A skill that loaded with errors is still offered when they leave its words as written.
    const index = this.index(skills.filter((s) => s.state !== 'error' || readableErrors(s) !== null));
    const terms = intentTerms(
      intent,
      (form) => index.knows(form),
      (term) => index.rarity(term),
    );
    if (terms.length === 0) return { results: [], also: [] };
    const hits = terms.map((term) => index.hits(term));
    index.noteNearness(hits);
    const total = hits.reduce((sum, h) => sum + h.weight, 0);
    const strengths = index.strengths(hits);

    const domains = options.domain === undefined ? null : (Array.isArray(options.domain) ? options.domain : [options.domain]).map((d) => d.toLowerCase());
    const seen = new Uint8Array(index.skills.length);
    const candidates: Candidate[] = [];
    for (const h of hits) {
      for (const at of h.holders) {
        if (seen[at] === 1) continue;
        seen[at] = 1;
        const skill = index.skills[at] as Skill;
        if (!isOffered(skill, mode)) continue;
        if (domains !== null && !skill.domain.some((d) => domains.includes(d.toLowerCase()))) continue;
        const best = bestUnit(hits, index, at, total);
        const role = skill.classification?.role ?? null;
        const errors = skill.state === 'error' ? (readableErrors(skill) ?? []) : [];
        if (best.relevance === 0) continue;
        const { relevance, spread, tool } = best;
        candidates.push({ at, skill, role, errors, relevance, share: relevance, spread, tool, score: 0, outdone: false, tagHits: [], readOnlyMatch: false });
      }
    }
    if (strengths !== null) {
      // The strength is weighed on the scale of the best share, so it reorders close matches without lifting weak ones.
      const top = candidates.reduce((most, c) => Math.max(most, c.relevance), 0);
      for (const c of candidates) c.relevance = (c.relevance + STRENGTH * top * (strengths[c.at] as number)) / (1 + STRENGTH);
    }
    const asked = (c: Candidate): boolean => (options.roleFilter !== undefined ? c.role === options.roleFilter : c.role !== 'sidecar');
    const results = ranked(candidates.filter(asked), hits, intent, options.limit ?? DEFAULT_LIMIT);
    const others = ranked(
      candidates.filter((c) => !asked(c)),
      hits,
      intent,
      ALSO_LIMIT,
    );
    const shown = results.map((c) => toResult(c, hits, index));
    // Compared as shown (rounded): a match of another role that only rounds level with the first is not a better one.
    const first = shown[0]?.score ?? 0;
    return {
      results: shown,
      also: others
        .map((c) => toResult(c, hits, index))
        .filter((r) => r.score > first)
        .slice(0, ALSO_LIMIT),
    };
  }

  close(): void {
    this.indexed?.close();
    this.indexed = null;
  }
}
