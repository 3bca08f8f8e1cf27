/** How run statuses and decisions read, and their badge tones. */
import type { DecidedBy, RecordedAnswer, RunStatus, RunSummary } from '../../src-main/shared/runs.js';

export const STATUS_TONES: Record<RunStatus, 'ok' | 'bad' | 'warn' | 'neutral' | 'info'> = {
  pending: 'info',
  running: 'info',
  succeeded: 'ok',
  failed: 'bad',
  cancelled: 'warn',
  timed_out: 'bad',
  denied: 'warn',
  refused: 'warn',
  interrupted: 'bad',
};

export const DECIDED_BY_LABELS: Record<DecidedBy, string> = {
  policy: 'policy',
  rule: 'a rule',
  remembered: 'remembered',
  user: 'you',
  timeout: 'nobody answered',
  caller: 'withdrawn by the caller',
  error: 'an error',
};

/** Who answered through each surface (Maps, these two: an actor is recorded text, and "constructor" is no surface). */
const ANSWERED_BY: ReadonlyMap<string, string> = new Map(
  Object.entries({
    tray: 'you in the Skilltray app',
    ui: 'you in the Skilltray app',
    browser: 'you in the browser',
    http: 'a client of the HTTP API',
    mcp: 'an MCP client',
    cli: "you with 'skilltray approve'",
  }),
);
const ANSWERED_WHERE: ReadonlyMap<string, string> = new Map(
  Object.entries({ tray: 'app', ui: 'app', browser: 'browser', http: 'HTTP', mcp: 'MCP', cli: 'CLI' }),
);

/** Who answered, from the actor recorded with the answer (the surface it came through, or the terminal's user). */
export function answeredBy(actor: string | null): string {
  if (actor === null) return 'someone';
  const surface = ANSWERED_BY.get(actor);
  if (surface !== undefined) return surface;
  const spoken = /^(\w+) \((voice|hotkey)\)$/.exec(actor);
  const spokenSurface = spoken?.[1] === undefined ? undefined : ANSWERED_BY.get(spoken[1]);
  if (spokenSurface !== undefined) return `${spokenSurface}, ${spoken?.[2] === 'voice' ? 'by voice' : 'with a hotkey'}`;
  const terminal = /^(.*) \(terminal\)$/.exec(actor);
  if (terminal) return `${terminal[1]} at a terminal`;
  const yes = /^(.*) \(--yes\)$/.exec(actor);
  if (yes) return `${yes[1]} with --yes`;
  return actor;
}

const ANSWERS: Record<RecordedAnswer, string> = {
  once: 'once',
  always: 'always (until revoked)',
  'always-session': 'always, for this session',
  deny: '',
};

/** The decision as a sentence: who allowed or stopped the run, how, and on which surface. */
export function decisionSentence(run: Pick<RunSummary, 'outcome' | 'decidedBy' | 'actor' | 'ruleId' | 'answer' | 'errorCode'>): string {
  const { outcome, decidedBy } = run;
  if (outcome === null || decidedBy === null) return 'Waiting for a decision.';
  if (decidedBy === 'caller') return 'Withdrawn by the caller before anyone answered (the caller went away; nobody denied it).';
  if (decidedBy === 'timeout') return 'Nobody answered in time: it timed out waiting for approval and did not run.';
  if (decidedBy === 'rule') return `${outcome === 'denied' ? 'Denied' : 'Allowed'} by rule #${run.ruleId ?? '?'}.`;
  if (decidedBy === 'remembered') return 'Allowed by your earlier “Always”.';
  if (decidedBy === 'user') {
    if (outcome === 'denied') return `Denied by ${answeredBy(run.actor)}.`;
    const how = run.answer === null ? '' : ` ${ANSWERS[run.answer]}`;
    const then = outcome === 'refused' ? `, then refused (${run.errorCode ?? 'see the reason'})` : '';
    return `Approved${how} by ${answeredBy(run.actor)}${then}.`;
  }
  if (decidedBy === 'policy' && outcome === 'auto') return 'Ran without asking, by policy.';
  return outcome === 'refused' ? `Refused${run.errorCode ? ` (${run.errorCode})` : ''}.` : `${outcome} by ${DECIDED_BY_LABELS[decidedBy]}.`;
}

/** Where an answer was given, in a word or two. */
function answeredWhere(actor: string | null): string {
  if (actor === null) return '?';
  const surface = ANSWERED_WHERE.get(actor);
  if (surface !== undefined) return surface;
  const spoken = /^(\w+) \((voice|hotkey)\)$/.exec(actor);
  const spokenSurface = spoken?.[1] === undefined ? undefined : ANSWERED_WHERE.get(spoken[1]);
  if (spokenSurface !== undefined) return `${spokenSurface}, ${spoken?.[2]}`;
  return actor.endsWith('(--yes)') ? '--yes' : actor.endsWith('(terminal)') ? 'terminal' : actor;
}

/** The decision in a few words, for a table cell. */
export function decisionShort(run: Pick<RunSummary, 'outcome' | 'decidedBy' | 'actor' | 'ruleId'>): string {
  if (run.decidedBy === null) return '—';
  if (run.decidedBy === 'user') return `you, ${run.outcome === 'denied' ? 'denied' : 'approved'} (${answeredWhere(run.actor)})`;
  if (run.decidedBy === 'rule') return `rule #${run.ruleId ?? '?'}`;
  return DECIDED_BY_LABELS[run.decidedBy];
}
