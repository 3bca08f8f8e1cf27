/** ADR-001's agent-facing results: discover and attach (list and run reuse the skill and run shapes). */
import type { AttachTarget, EffectMode, Role } from './model.js';
import type { RunReport } from './runs.js';

/** One ranked answer to "which skill solves this?". */
export interface DiscoverResult {
  skill_id: string;
  name: string;
  /** 0–1: the relevance weighed by ADR-001's ranking rules; results come sorted by it, descending. */
  score: number;
  /** 0–1: the share of the intent's words the skill contains, rarer words and name or tag hits counting more. */
  relevance: number;
  role: Role | null;
  effect_mode: EffectMode | null;
  /** Why it ranked here, in a sentence a person can read. */
  reason: string;
  /** The skill's tools offered in the current mode (empty for a content-only skill). */
  tools: string[];
}

/** What `attach` hands back: the run it made against the target. */
export interface AttachResult {
  skill_id: string;
  target_type: AttachTarget;
  target_ref: string;
  execution: RunReport;
  /** ISO-8601 timestamp. */
  attached_at: string;
}
