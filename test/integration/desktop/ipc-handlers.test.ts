import { afterEach, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { ipcHandlers, trustedSender, type DesktopHandlers, type SenderFrame } from '../../../src-main/electron/ipc-handlers.js';
import { DESKTOP_OPERATIONS, OPERATIONS, ipcChannel, type Envelope, type WindowRoute } from '../../../src-main/shared/contract.js';
import type { PendingNotice } from '../../../src-main/shared/runs.js';
import { skillMd, testHome, writeSkill } from '../../support/temp.js';

const APP_PAGE: SenderFrame = { url: 'app://skilltray/index.html#/skills', parent: null };
const cores: SkilltrayCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

function setup() {
  const t = testHome();
  writeSkill(
    t.skills,
    'greeter',
    skillMd(
      { name: 'greeter', description: 'Greets.', version: '1.0.0' },
      `\n### hello\n\nSays hello.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| who | string | yes | whom |\n\n#### Command\n\n\`\`\`\n${process.execPath} -e process.stdout.write(process.argv[1]) <<who>>\n\`\`\`\n`,
    ),
  );
  const core = new SkilltrayCore(t.config());
  cores.push(core);
  const opened: WindowRoute[] = [];
  const desktop: DesktopHandlers = {
    openWindow: (route) => void opened.push(route),
    openSkillsFolder: async () => {
      throw new Error('no file manager here');
    },
    quit: () => undefined,
  };
  const handlers = ipcHandlers(
    core,
    { surface: 'ui', caller: { kind: 'person' }, cwd: t.userHome, approval: { kind: 'broker' }, owner: 'app', version: '0.0.0-test' },
    desktop,
  );
  const call = (channel: string, input: unknown, frame: SenderFrame | null = APP_PAGE): Promise<Envelope<unknown>> => {
    const handler = handlers.get(ipcChannel(channel as never));
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler(frame, input);
  };
  return { t, core, handlers, call, opened };
}

describe('IPC handlers generated from the contract', () => {
  it('answer on exactly one channel per operation and desktop command', () => {
    const { handlers } = setup();
    expect([...handlers.keys()].sort()).toEqual([...OPERATIONS, ...DESKTOP_OPERATIONS].map((op) => ipcChannel(op)).sort());
  });

  it('answer only the app’s own top-level page (E803 for anything else), and run nothing for it', async () => {
    const { call, core } = setup();
    for (const frame of [
      null,
      { url: 'https://example.com/', parent: null },
      { url: 'app://skilltray/index.html', parent: {} },
      { url: 'app://skilltray.evil/index.html', parent: null },
      { url: 'file:///etc/passwd', parent: null },
    ]) {
      expect(trustedSender(frame)).toBe(false);
      const envelope = await call('run', { skill: 'greeter', tool: 'hello', args: { who: 'x' } }, frame);
      expect(envelope).toMatchObject({ ok: false, error: { code: 'E803', kind: 'forbidden_origin' } });
      expect(await call('openWindow', { route: 'skills' }, frame)).toMatchObject({ ok: false, error: { code: 'E803' } });
    }
    expect(core.runs.history()).toEqual([]);
  });

  it('validate every payload against the contract (E805) before anything happens', async () => {
    const { call, opened } = setup();
    expect(await call('describe', { skill: 5 })).toMatchObject({
      ok: false,
      error: { code: 'E805', details: { issues: [expect.objectContaining({ path: 'skill' })] } },
    });
    expect(await call('list', { surprise: true })).toMatchObject({ ok: false, error: { code: 'E805' } });
    expect(await call('openWindow', { route: '../../etc' })).toMatchObject({ ok: false, error: { code: 'E805' } });
    expect(opened).toEqual([]);
  });

  it('run a tool the way the UI does: the approval waits for the person, answered over IPC, recorded as the tray’s', async () => {
    const { call, core } = setup();
    const added = new Promise<PendingNotice>((resolve) => core.on('event', (e) => e.type === 'approval.added' && resolve(e.entry)));
    const running = call('run', { skill: 'greeter', tool: 'hello', args: { who: 'Ada' } });
    const pending = await added;
    expect(pending).toMatchObject({ surface: 'ui', skill: 'greeter' });
    expect(core.broker.list()).toMatchObject([{ id: pending.id, argv: ['-e', 'process.stdout.write(process.argv[1])', 'Ada'] }]);
    expect(await call('answerApproval', { id: pending.id, verdict: 'once' })).toEqual({ ok: true, value: { ok: true } });
    const envelope = (await running) as Envelope<{ result: { stdout: string }; decision: { actor: string } }>;
    expect(envelope.ok && envelope.value.result.stdout).toBe('Ada');
    expect(envelope.ok && envelope.value.decision.actor).toBe('tray');
  });

  it('carry desktop commands to the app, and their failures back as errors', async () => {
    const { call, opened } = setup();
    expect(await call('openWindow', { route: 'approvals' })).toEqual({ ok: true, value: { ok: true } });
    expect(opened).toEqual(['approvals']);
    expect(await call('openSkillsFolder', {})).toMatchObject({ ok: false, error: { code: 'E999', message: 'no file manager here' } });
  });
});
