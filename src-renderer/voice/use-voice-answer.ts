/**
 * Answering one request aloud: say its prompt, listen a few seconds (Esc stops and keeps nothing),
 * send what was heard to answerApprovalByVoice — the same operation every test uses — and say back
 * what it did. Nothing is recorded unless voice is on.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PendingEntry } from '../../src-main/shared/runs.js';
import type { VoiceAnswer } from '../../src-main/shared/voice.js';
import { useClient } from '../app/connection-context.js';
import { captureAnswer, type Capture } from './microphone.js';
import { speakText } from './speech.js';

export type VoicePhase = 'idle' | 'speaking' | 'listening' | 'hearing' | 'done';

export interface VoiceTurn {
  phase: VoicePhase;
  /** What the last answer did, and what was heard. */
  answer: VoiceAnswer | null;
  error: Error | null;
  /** Says the prompt, then listens. */
  prompt(): void;
  /** Listens now. */
  listen(): void;
  /** Stops listening; nothing recorded is kept or sent. */
  stop(): void;
}

export function useVoiceAnswer(entry: PendingEntry, enabled: boolean, onDone?: () => void): VoiceTurn {
  const client = useClient();
  const [phase, setPhase] = useState<VoicePhase>('idle');
  const [answer, setAnswer] = useState<VoiceAnswer | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const capture = useRef<Capture | null>(null);
  /** Set by stop(): a stop before the microphone has opened ends the capture as soon as it opens. */
  const stopped = useRef(false);
  const alive = useRef(true);
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });
  useEffect(
    () => () => {
      alive.current = false;
      capture.current?.stop();
    },
    [],
  );

  const finish = useCallback((): void => {
    if (!alive.current) return;
    setPhase('done');
    done.current?.();
  }, []);

  const listen = useCallback((): void => {
    if (!enabled || capture.current !== null) return;
    setError(null);
    stopped.current = false;
    setPhase('listening');
    captureAnswer()
      .then(async (started) => {
        capture.current = started;
        if (stopped.current || !alive.current) started.stop();
        const wav = await started.done;
        capture.current = null;
        if (wav === null || !alive.current) return finish();
        setPhase('hearing');
        const heard = await client.answerApprovalByVoice({ id: entry.id, wav });
        if (!alive.current) return;
        setAnswer(heard);
        await speakText(heard.say, client).catch(() => undefined);
        finish();
      })
      .catch((e: unknown) => {
        capture.current = null;
        if (!alive.current) return;
        setError(e instanceof Error ? e : new Error(String(e)));
        finish();
      });
  }, [client, enabled, entry.id, finish]);

  const prompt = useCallback((): void => {
    if (!enabled) return;
    setPhase('speaking');
    speakText(entry.speech ?? '', client)
      .catch(() => undefined)
      .then(() => (alive.current ? listen() : undefined));
  }, [client, enabled, entry.speech, listen]);

  const stop = useCallback((): void => {
    stopped.current = true;
    capture.current?.stop();
  }, []);

  // One key stops listening, wherever focus is.
  useEffect(() => {
    if (phase !== 'listening') return;
    const onKey = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      stop();
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [phase, stop]);

  return { phase, answer, error, prompt, listen, stop };
}
