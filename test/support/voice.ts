/**
 * What the voice tests share: a core over a test home whose approval codes the test picks, a user
 * skill whose tool asks (and may write in its folder), espeak-ng rendering words as the recordings
 * a person's microphone would send, and the person's own surface calling answerApprovalByVoice.
 */
import { callOperation, type CallContext } from '../../src-main/core/operations.js';
import { SkilltrayCore } from '../../src-main/core/api.js';
import { randomCode } from '../../src-main/core/policy/approval-broker.js';
import { EspeakSynthesiser } from '../../src-main/core/voice/espeak.js';
import type { Envelope } from '../../src-main/shared/contract.js';
import { wavBytes } from '../../src-main/shared/pcm.js';
import type { PendingEntry, RunReport, Surface } from '../../src-main/shared/runs.js';
import type { VoiceAnswer } from '../../src-main/shared/voice.js';
import { PROCESS_FIXTURES, skillMd, testHome, writeSkill, type TestHome } from './temp.js';

/** The two voices answers are spoken in: espeak-ng's US English, and its British English with a female variant. */
export const VOICES = ['en-us', 'en-gb+f3'] as const;

const synthesiser = new EspeakSynthesiser(process.env);

/** `text` spoken in `voice`, as base64 of a 16 kHz mono WAV. */
export async function spoken(text: string, voice: string = VOICES[0]): Promise<string> {
  return Buffer.from(wavBytes(await synthesiser.render(text, voice))).toString('base64');
}

/** A SKILL.md whose tool `go` prints its argument with Node: a user skill, so it asks, and not read-only, so it may write in its folder. */
export function writingSkill(name: string, frontmatter: Record<string, unknown> = {}): string {
  return skillMd(
    { name, description: `The ${name} skill. Use when testing voice.`, version: '1.0.0', reads: [PROCESS_FIXTURES], ...frontmatter },
    `### go\n\nPrints its argument.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| a | string | no | what to print |\n\n#### Command\n\n\`\`\`\n${process.execPath} ${PROCESS_FIXTURES}/print-argv.mjs <<a>>\n\`\`\`\n`,
  );
}

export interface VoiceHome {
  t: TestHome;
  core: SkilltrayCore;
  /** Codes the next requests get, in order (then the default's random ones). */
  codes: string[];
  /** Asks to run `skill`'s tool `go` as an assistant would (`channel` voice when said), and resolves once it waits for the person. */
  ask(skill?: string, options?: { channel?: 'voice' }): Promise<{ entry: PendingEntry; run: Promise<RunReport> }>;
  /** Calls an operation from `surface` (the app's own window unless said). */
  call<T>(operation: string, input: unknown, surface?: Surface): Promise<Envelope<T>>;
  /** answerApprovalByVoice from the app's window: the answer, or the error's code. */
  answer(id: string, wav: string, surface?: Surface): Promise<VoiceAnswer | { code: string }>;
}

/** A core over a fresh test home with the writing skill `writes`, voice on. */
export function voiceHome(options: { env?: NodeJS.ProcessEnv } = {}): VoiceHome {
  const t = testHome();
  writeSkill(t.skills, 'writes', writingSkill('writes'));
  const codes: string[] = [];
  const core = new SkilltrayCore(t.config(options.env), { approvalCode: (avoid) => codes.shift() ?? randomCode(avoid) });
  core.voice.setSettings({ enabled: true });
  // The assistants' surfaces stand for an assistant's credential; every other is the person's (core/authority.ts decides this for real callers).
  const context = (surface: Surface): CallContext => ({
    surface,
    caller: surface === 'mcp' || surface === 'http' ? { kind: 'assistant', name: surface } : { kind: 'person' },
    cwd: t.userHome,
    approval: { kind: 'broker' },
    owner: 'serve',
    version: '0.0.0-test',
  });
  return {
    t,
    core,
    codes,
    ask: async (skill = 'writes', askOptions = {}) => {
      const added = new Promise<PendingEntry>((resolve) => {
        const off = core.broker.on('added', (entry) => {
          off();
          resolve(entry);
        });
      });
      const run = core.runs.run({ skill, tool: 'go', args: { a: 'ran' }, surface: 'mcp', cwd: t.work, ...askOptions }, { approval: { kind: 'broker' } });
      // A refusal before asking would leave `added` waiting: fail with it instead.
      const entry = await Promise.race([added, run.then(() => Promise.reject(new Error('the run did not ask')))]);
      return { entry, run };
    },
    call: <T>(operation: string, input: unknown, surface: Surface = 'ui') => callOperation(core, operation, input, context(surface)) as Promise<Envelope<T>>,
    answer: async (id, wav, surface = 'ui') => {
      const envelope = (await callOperation(core, 'answerApprovalByVoice', { id, wav }, context(surface))) as Envelope<VoiceAnswer>;
      return envelope.ok ? envelope.value : { code: envelope.error.code };
    },
  };
}
