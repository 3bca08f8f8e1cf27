import { describe, expect, it } from 'vitest';
import { decisionSentence, decisionShort } from '../../../src-renderer/runs/run-status.js';
import type { RunSummary } from '../../../src-main/shared/runs.js';

type Decided = Pick<RunSummary, 'outcome' | 'decidedBy' | 'actor' | 'ruleId' | 'answer' | 'errorCode'>;
const run = (overrides: Partial<Decided>): Decided => ({
  outcome: 'approved',
  decidedBy: 'user',
  actor: 'tray',
  ruleId: null,
  answer: 'once',
  errorCode: null,
  ...overrides,
});

describe('what history says happened', () => {
  it.each<[Partial<Decided>, string]>([
    [{}, 'Approved once by you in the Skilltray app.'],
    [{ actor: 'browser', answer: 'always-session' }, 'Approved always, for this session by you in the browser.'],
    [{ actor: 'ana@laptop (terminal)', answer: 'always' }, 'Approved always (until revoked) by ana@laptop at a terminal.'],
    [{ actor: 'ana@laptop (--yes)' }, 'Approved once by ana@laptop with --yes.'],
    [{ outcome: 'denied', actor: 'cli', answer: 'deny' }, "Denied by you with 'skilltray approve'."],
    [
      { outcome: 'refused', decidedBy: 'caller', actor: null, answer: null, errorCode: 'E613' },
      'Withdrawn by the caller before anyone answered (the caller went away; nobody denied it).',
    ],
    [
      { outcome: 'refused', decidedBy: 'timeout', actor: null, answer: null, errorCode: 'E604' },
      'Nobody answered in time: it timed out waiting for approval and did not run.',
    ],
    [{ outcome: 'refused', actor: 'tray', errorCode: 'E612' }, 'Approved once by you in the Skilltray app, then refused (E612).'],
    [{ outcome: 'auto', decidedBy: 'rule', ruleId: 4, actor: null, answer: null }, 'Allowed by rule #4.'],
    [{ outcome: 'auto', decidedBy: 'remembered', actor: null, answer: null }, 'Allowed by your earlier “Always”.'],
    [{ outcome: 'auto', decidedBy: 'policy', actor: null, answer: null }, 'Ran without asking, by policy.'],
  ])('%j', (overrides, sentence) => {
    expect(decisionSentence(run(overrides))).toBe(sentence);
  });

  it('a withdrawn request is never shown as a denial by the person', () => {
    const withdrawn = run({ outcome: 'refused', decidedBy: 'caller', actor: null });
    expect(decisionSentence(withdrawn)).not.toMatch(/denied by/i);
    expect(decisionShort(withdrawn)).toBe('withdrawn by the caller');
    expect(decisionShort(run({ outcome: 'denied', actor: 'browser' }))).toBe('you, denied (browser)');
  });
});
