import { describe, expect, it } from 'vitest';
import { ApprovalBroker } from '../../../src-main/core/policy/approval-broker.js';
import { VoiceDesk } from '../../../src-main/core/voice/voice-desk.js';
import type { PendingApproval, SandboxView } from '../../../src-main/shared/runs.js';

const unused = (): never => {
  throw new Error('not used by hotkeys');
};

function request(id: string, sandbox: SandboxView['name'], requestedAt: number): PendingApproval {
  return {
    id,
    traceId: id,
    surface: 'mcp',
    assistant: 'mcp',
    skill: 'git',
    tool: sandbox === 'read-only' ? 'git_status' : 'git_commit',
    trust: 'user',
    identity: { rootKind: 'home', path: '/h/skills/git', hash: 'h', manifest: null, trust: 'user', unverified: null, hides: [] },
    readOnly: sandbox === 'read-only',
    programPath: '/usr/bin/git',
    args: {},
    argv: ['status'],
    cwd: '/tmp/repo',
    timeoutMs: 15_000,
    env: [],
    requestedAt,
    reason: 'user skill',
    sandbox: { name: sandbox, network: false, hosts: [], contained: true, mechanism: 'bubblewrap', why: null },
    supplied: [],
    rememberScopes: ['folder'],
  };
}

function desk() {
  let now = 10_000;
  const broker = new ApprovalBroker();
  const voice = new VoiceDesk({
    db: unused,
    broker,
    recogniser: { status: unused, hear: unused },
    synthesiser: { status: unused, say: unused, render: unused },
    emit: unused,
    now: () => now,
  });
  const ask = (id: string, sandbox: SandboxView['name'], at: number) => broker.request(request(id, sandbox, at), { timeoutMs: 60_000 });
  return { broker, voice, ask, advance: (ms: number) => void (now += ms) };
}

describe('the hotkeys on the newest request', () => {
  it('run a read-only request at once, and a writing one only on a second press within two seconds', async () => {
    const d = desk();
    const older = d.ask('older', 'read-only', 1);
    const newer = d.ask('newer', 'workspace', 2);
    expect(d.voice.hotkey('run', 'tray (hotkey)')).toMatchObject({
      outcome: 'confirm',
      id: 'newer',
      say: expect.stringContaining('press again within two seconds'),
    });
    d.advance(2001);
    // Too late: this press asks again instead.
    expect(d.voice.hotkey('run', 'tray (hotkey)')).toMatchObject({ outcome: 'confirm', id: 'newer' });
    d.advance(1999);
    expect(d.voice.hotkey('run', 'tray (hotkey)')).toMatchObject({ outcome: 'answered', id: 'newer' });
    await expect(newer).resolves.toEqual({ verdict: 'once', actor: 'tray (hotkey)' });
    expect(d.voice.hotkey('run', 'tray (hotkey)')).toMatchObject({ outcome: 'answered', id: 'older' });
    await expect(older).resolves.toEqual({ verdict: 'once', actor: 'tray (hotkey)' });
    expect(d.voice.hotkey('run', 'tray (hotkey)')).toEqual({ outcome: 'nothing', id: null, say: 'Nothing is waiting for your approval.' });
  });

  it('deny the newest at once; a first Run press on one request never counts for the next', async () => {
    const d = desk();
    const first = d.ask('first', 'workspace', 1);
    expect(d.voice.hotkey('run', 'tray (hotkey)').outcome).toBe('confirm');
    const second = d.ask('second', 'workspace', 2);
    // The newest is another request now: this press only arms it.
    expect(d.voice.hotkey('run', 'tray (hotkey)')).toMatchObject({ outcome: 'confirm', id: 'second' });
    expect(d.voice.hotkey('deny', 'tray (hotkey)')).toMatchObject({ outcome: 'answered', id: 'second' });
    await expect(second).resolves.toEqual({ verdict: 'deny', actor: 'tray (hotkey)' });
    // Deny disarmed Run: the first request needs its two presses again.
    expect(d.voice.hotkey('run', 'tray (hotkey)')).toMatchObject({ outcome: 'confirm', id: 'first' });
    expect(d.broker.list().map((e) => e.id)).toEqual(['first']);
    d.broker.cancel('first');
    await first.catch(() => undefined);
  });
});
