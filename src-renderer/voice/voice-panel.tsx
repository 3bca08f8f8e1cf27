/** The voice line of an approval card: the code to say, listening (with the key that stops it), what was heard, or why voice cannot answer here. */
import { codeWords } from '../../src-main/shared/voice.js';
import type { PendingEntry } from '../../src-main/shared/runs.js';
import { needsCode, type VoiceStatus } from '../../src-main/shared/voice.js';
import { ErrorNote } from '../app/error-note.js';
import type { VoiceTurn } from './use-voice-answer.js';

const OUTCOME: Record<string, string> = {
  once: 'Heard “run”: running.',
  always: 'Heard “always”: always allowed in this folder, running.',
  deny: 'Heard “deny”: denied.',
  cancel: 'Heard “cancel”: stopped listening; the request still waits.',
  'not-understood': 'Not caught: nothing was answered.',
  'wrong-code': 'That code does not match this request: nothing was answered.',
};

export function VoicePanel({ entry, turn, status }: { entry: PendingEntry; turn: VoiceTurn; status: VoiceStatus | undefined }) {
  const say = needsCode(entry) ? `“run ${codeWords(entry.code ?? '')}”` : '“run”';
  if (status !== undefined && !status.recogniser.available) {
    return <p className="voice-line voice-unavailable">voice unavailable: {status.recogniser.why}. Answer with the buttons or the keyboard.</p>;
  }
  return (
    <div className={`voice-line voice-${turn.phase}`} role="status" aria-live="polite">
      {turn.phase === 'listening' ? (
        <>
          <span className="listening-dot" aria-hidden="true" />
          <span>
            <strong>Listening…</strong> say {say} or “deny”.
          </span>
          <button type="button" className="button button-quiet" onClick={turn.stop} aria-keyshortcuts="Escape">
            Stop listening <kbd aria-hidden="true">Esc</kbd>
          </button>
        </>
      ) : turn.phase === 'speaking' ? (
        <span>Saying the request aloud…</span>
      ) : turn.phase === 'hearing' ? (
        <span>Hearing what you said…</span>
      ) : (
        <>
          <span>
            {turn.answer === null ? (
              <>Answer aloud: say {say} or “deny”.</>
            ) : (
              <>
                {OUTCOME[turn.answer.outcome]}{' '}
                <span className="muted">
                  (heard “{turn.answer.hearing.text || 'nothing'}”, confidence {turn.answer.hearing.confidence.toFixed(2)})
                </span>
              </>
            )}
          </span>
          <button type="button" className="button button-quiet" onClick={turn.listen}>
            Answer by voice
          </button>
        </>
      )}
      {turn.error ? <ErrorNote error={turn.error} title="Voice could not answer" /> : null}
    </div>
  );
}
