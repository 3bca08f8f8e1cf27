/**
 * A run an assistant asked for from a voice turn (`channel: "voice"`): a remembered Always never
 * runs a writing tool of it unasked, since a voice assistant may have misheard what the person
 * wanted; it asks, and the spoken yes must carry the request's code (docs/voice.md).
 */
import type { SandboxView } from '../../shared/runs.js';
import type { RunChannel } from '../../shared/runs.js';
import { isWriting } from '../../shared/voice.js';
import type { Decision } from './decide.js';

/** The decision for a request that came through `channel`: a remembered Always of a writing tool asks when it came from a voice turn. */
export function voiceTurn(decision: Decision, channel: RunChannel, sandbox: SandboxView): Decision {
  if (channel !== 'voice' || decision.outcome !== 'auto' || decision.by !== 'remembered' || !isWriting(sandbox)) return decision;
  return {
    outcome: 'ask',
    reason: `${decision.reason}, but an assistant asked for it from a voice turn and it may change files, so it asks (a spoken yes needs the request's code)`,
  };
}
