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
  /** The skill's tools offered in the current mode (empty for a content-only skill, and for one with errors: they do not run). */
  tools: string[];
  /** The codes of the errors of a skill that loaded with errors but can still be read (its tools do not run); empty when it has none. */
  errors: string[];
}

/** What discover answers: the ranked candidates, and better matches the call's role left out. */
export interface DiscoverAnswer {
  /** Best first, sidecars only when role_filter asks for them. */
  results: DiscoverResult[];
  /**
   * Skills of another role (a sidecar, or a role other than role_filter's) that match better than the
   * first result, best first: "also: artifact-checksum, a sidecar, 0.81". Empty when none does.
   */
  also: DiscoverResult[];
}

/** A skill's role in a few words, as `also: artifact-checksum, a sidecar, 0.81` says it. */
export function roleWords(role: Role | null): string {
  return role === null ? 'not classified' : `a ${role}`;
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
