import { describe, expect, it } from 'vitest';
import type { Decision } from '../../../src-main/core/policy/decide.js';
import { voiceTurn } from '../../../src-main/core/policy/voice-turn.js';
import type { SandboxView } from '../../../src-main/shared/runs.js';

const view = (name: SandboxView['name'], contained = true): SandboxView => ({
  name,
  network: false,
  hosts: [],
  contained,
  mechanism: contained ? 'bubblewrap' : null,
  why: null,
});
const remembered: Decision = { outcome: 'auto', by: 'remembered', reason: 'you chose to always allow it' };

describe('a request from a voice turn', () => {
  it('asks instead of running a writing tool on a remembered Always', () => {
    expect(voiceTurn(remembered, 'voice', view('workspace'))).toEqual({
      outcome: 'ask',
      reason:
        "you chose to always allow it, but an assistant asked for it from a voice turn and it may change files, so it asks (a spoken yes needs the request's code)",
    });
    expect(voiceTurn(remembered, 'voice', view('read-only', false)).outcome).toBe('ask');
  });

  it('changes nothing else: a read-only tool, another channel, a rule, bundled policy, or a decision that already asks', () => {
    expect(voiceTurn(remembered, 'voice', view('read-only'))).toBe(remembered);
    expect(voiceTurn(remembered, 'assistant', view('workspace'))).toBe(remembered);
    expect(voiceTurn(remembered, 'keyboard', view('workspace'))).toBe(remembered);
    const rule: Decision = { outcome: 'auto', by: 'rule', ruleId: 1, reason: 'allowed by rule #1' };
    expect(voiceTurn(rule, 'voice', view('workspace'))).toBe(rule);
    const asks: Decision = { outcome: 'ask', reason: 'user skill' };
    expect(voiceTurn(asks, 'voice', view('workspace'))).toBe(asks);
  });
});
