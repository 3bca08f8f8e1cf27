/** `#/approvals`: the queue the window comes forward for; answered requests stay to show their run. */
import { useEffect, useRef, useState } from 'react';
import type { PendingEntry, RememberExpiry, RememberScope, VerdictKind } from '../../src-main/shared/runs.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient, useConnection } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { usePending } from '../app/pending.js';
import { RunProgressView } from '../runs/run-output.js';
import { useRunProgress } from '../runs/use-run-progress.js';
import { isMac } from '../app/platform.js';
import { shortcutLabel } from './approval-keys.js';
import { ApprovalCard } from './approval-card.js';
import { answerInput } from './answer.js';
import { useVoice } from '../voice/use-voice.js';
import { useVoiceAnswer } from '../voice/use-voice-answer.js';
import { VoicePanel } from '../voice/voice-panel.js';
import type { VoiceStatus } from '../../src-main/shared/voice.js';

interface Answered {
  entry: PendingEntry;
  verdict: VerdictKind;
}

/**
 * One request. Its run's progress is followed from the moment the card mounts, so output that
 * streams in before the answer's own response arrives is not missed; once answered with once or
 * always, the card shows that run.
 */
function ApprovalItem(props: {
  entry: PendingEntry;
  verdict: VerdictKind | null;
  mac: boolean;
  onAnswer: (verdict: VerdictKind, expires: RememberExpiry, scope: RememberScope) => Promise<void>;
  onDismiss: () => void;
  /** Voice on: its state here; its turn to be said aloud comes when `speakNow`. */
  voice: { on: boolean; status: VoiceStatus | undefined; speakNow: boolean; onSpoken: () => void };
}) {
  const { entry, verdict, mac, onAnswer, onDismiss, voice } = props;
  const client = useClient();
  const progress = useRunProgress({ id: entry.id });
  const turn = useVoiceAnswer(entry, voice.on, voice.onSpoken);
  const { prompt } = turn;
  useEffect(() => {
    if (voice.speakNow) prompt();
  }, [voice.speakNow, prompt]);
  return (
    <ApprovalCard
      entry={entry}
      mac={mac}
      answered={verdict}
      onAnswer={onAnswer}
      voice={voice.on ? <VoicePanel entry={entry} turn={turn} status={voice.status} /> : null}
    >
      {verdict !== null && verdict !== 'deny' ? (
        <>
          <RunProgressView progress={progress} onCancel={async () => void (await client.cancelRun({ id: entry.id }))} />
          {progress.phase === 'finished' ? (
            <div className="button-row">
              <button type="button" className="button button-quiet" onClick={onDismiss}>
                Dismiss
              </button>
            </div>
          ) : null}
        </>
      ) : null}
    </ApprovalCard>
  );
}

export function ApprovalsScreen() {
  const client = useClient();
  const connection = useConnection();
  const announce = useAnnounce();
  const { entries, error } = usePending();
  const [answered, setAnswered] = useState<Answered[]>([]);
  const heading = useRef<HTMLHeadingElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const mac = isMac(connection.platform);
  const voice = useVoice();
  const voiceOn = voice.settings?.enabled === true;
  const canHear = voiceOn && voice.status?.recogniser.available === true;
  // Each request is said aloud once, one at a time, oldest first, in this window.
  const [spoken, setSpoken] = useState<ReadonlySet<string>>(new Set());
  const [speaking, setSpeaking] = useState<string | null>(null);
  useEffect(() => {
    if (!canHear || speaking !== null) return;
    const next = entries.find((e) => !spoken.has(e.id));
    if (next === undefined) return;
    setSpoken((prev) => new Set([...prev, next.id]));
    setSpeaking(next.id);
  }, [canHear, entries, spoken, speaking]);
  // A request answered elsewhere while it was being said frees the turn.
  useEffect(() => {
    if (speaking !== null && !entries.some((e) => e.id === speaking)) setSpeaking(null);
  }, [entries, speaking]);

  const followed = new Set(answered.map((a) => a.entry.id));
  const items = [
    ...entries.filter((e) => !followed.has(e.id)).map((entry) => ({ entry, verdict: null as VerdictKind | null })),
    ...answered.map((a) => ({ entry: a.entry, verdict: a.verdict as VerdictKind | null })),
  ].sort((a, b) => a.entry.requestedAt - b.entry.requestedAt);

  // With nothing focused (a fresh window, or the focused request just went away), focus the oldest open request.
  const firstOpen = entries.find((e) => !followed.has(e.id))?.id ?? null;
  useEffect(() => {
    if (firstOpen === null || (document.activeElement !== null && document.activeElement !== document.body)) return;
    list.current?.querySelector<HTMLElement>(`[data-approval-id="${CSS.escape(firstOpen)}"]`)?.focus();
  }, [firstOpen]);

  const answer = (entry: PendingEntry) => async (verdict: VerdictKind, expires: RememberExpiry, scope: RememberScope) => {
    // Kept before the answer is sent: the queue may drop the request (approval.resolved) before the reply arrives.
    if (verdict !== 'deny') setAnswered((prev) => [...prev, { entry, verdict }]);
    try {
      await client.answerApproval(answerInput(entry.id, verdict, expires, scope));
    } catch (e) {
      setAnswered((prev) => prev.filter((a) => a.entry.id !== entry.id));
      throw e;
    }
    if (verdict === 'deny') {
      announce(`Denied ${entry.skill} ${entry.tool}`);
      const next = list.current?.querySelector<HTMLElement>(`[data-approval-id]:not([data-approval-id="${CSS.escape(entry.id)}"])`);
      (next ?? heading.current)?.focus();
    } else {
      const always = `Always allowed ${scope === 'anywhere' ? 'in any folder' : 'in this folder'} ${expires === 'session' ? 'for this session' : 'until you revoke it'}`;
      announce(`${verdict === 'always' ? always : 'Allowed once'}: ${entry.skill} ${entry.tool}. Running.`);
    }
  };

  return (
    <div className="page">
      <header className="page-head">
        <h1 ref={heading} tabIndex={-1}>
          Approvals
        </h1>
        <p className="lede">
          {entries.length === 0 ? 'Nothing is waiting for you.' : `${entries.length} ${entries.length === 1 ? 'request is' : 'requests are'} waiting for you.`}{' '}
          <span className="muted approvals-shortcuts">
            Shortcuts: <kbd>{shortcutLabel('once', mac)}</kbd> run once, <kbd>{shortcutLabel('always', mac)}</kbd> always allow,{' '}
            <kbd>{shortcutLabel('deny', mac)}</kbd> deny.
          </span>
        </p>
      </header>
      {error ? <ErrorNote error={error} title="The queue could not be loaded" /> : null}
      <div ref={list} className="stack">
        {items.length === 0 ? (
          <div className="empty">
            <p>When an assistant asks to run a tool that needs your approval, the request appears here with the exact program and arguments.</p>
          </div>
        ) : (
          items.map(({ entry, verdict }) => (
            <ApprovalItem
              key={entry.id}
              entry={entry}
              verdict={verdict}
              mac={mac}
              onAnswer={answer(entry)}
              onDismiss={() => setAnswered((prev) => prev.filter((a) => a.entry.id !== entry.id))}
              voice={{
                on: voiceOn && verdict === null,
                status: voice.status,
                speakNow: speaking === entry.id,
                onSpoken: () => setSpeaking((id) => (id === entry.id ? null : id)),
              }}
            />
          ))
        )}
      </div>
    </div>
  );
}
