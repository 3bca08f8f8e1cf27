/** How run statuses and deciders read, and their badge tones. */
import type { DecidedBy, RunStatus } from '../../src-main/shared/runs.js';

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
  timeout: 'timeout',
  error: 'an error',
};
