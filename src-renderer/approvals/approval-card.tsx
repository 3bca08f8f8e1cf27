/**
 * One approval request: a sentence a person reads in two seconds, the command with the caller's
 * values set apart and the fixed safety flags folded away, the exact argv one click away, and the
 * three answers in a footer that stays on screen.
 */
import { useId, useState, type ReactNode } from 'react';
import { displayText } from '../../src-main/shared/display-text.js';
import { identityWarnings } from '../../src-main/shared/identity-text.js';
import type { PendingEntry, RememberExpiry, RememberScope, SandboxView, VerdictKind } from '../../src-main/shared/runs.js';
import { codeShown, codeWords } from '../../src-main/shared/voice.js';
import { ErrorNote } from '../app/error-note.js';
import { formatCountdown } from '../app/format.js';
import { useNow } from '../app/use-now.js';
import { ApprovalAnswers, EXPIRY_LABELS, SCOPE_LABELS, offeredVerdicts, type AlwaysChoice } from './approval-answers.js';
import { ApprovalCommand } from './approval-command.js';
import { verdictForKey } from './approval-keys.js';
import { BoxLines } from './box-lines.js';
import { commandWords, fitWords, sentenceFrame } from './command-words.js';
import { TRUST_LABELS, sandboxBadges } from './labels.js';
import { NetworkReach } from './network-reach.js';
import { useArmed } from './use-armed.js';
import { Visible, Words } from './visible-text.js';

/** How much of the command the sentence shows before it says "…": the rest is in the command line under it. */
const SENTENCE_COMMAND_CHARS = 48;

/** The one sentence: who asks to run what (as code), where, how contained. */
function Sentence({ entry }: { entry: PendingEntry }) {
  const { asker, where, containment } = sentenceFrame(entry);
  const { words, cut } = fitWords(commandWords(entry, true), SENTENCE_COMMAND_CHARS);
  return (
    <>
      {asker} asks to run{' '}
      <code className="sentence-command">
        <Words words={words} cut={cut} />
      </code>{' '}
      in <Visible value={where} /> — {containment}.
    </>
  );
}

/** The profile as badges that agree with policy: what the run may touch, and whether anything contains it. */
function SandboxBadges({ sandbox }: { sandbox: SandboxView }) {
  return (
    <>
      {sandboxBadges(sandbox).map((badge) => (
        <span key={badge.text} className={`badge badge-${badge.tone}`} title={badge.title}>
          {badge.text}
        </span>
      ))}
    </>
  );
}

/** The line above the sentence: how long the request has while open, what was answered once it is not. */
function Eyebrow({ entry, answered, choice, now }: { entry: PendingEntry; answered: VerdictKind | null; choice: AlwaysChoice; now: number }) {
  const remaining = entry.expiresAt - now;
  return (
    <p className="eyebrow">
      {answered === null ? (
        <>
          Approval needed <span className={remaining < 30_000 ? 'text-warn' : 'eyebrow-quiet'}>· expires in {formatCountdown(remaining)}</span>
        </>
      ) : answered === 'deny' ? (
        'Denied'
      ) : answered === 'always' ? (
        `Allowed (remembered ${SCOPE_LABELS[choice.scope]}, ${EXPIRY_LABELS[choice.expires]})`
      ) : (
        'Allowed once'
      )}
    </p>
  );
}

/** Who asks (skill / tool) and why, and what the person must know before answering: no box, an identity that changed. */
function Reason({ entry, toolId }: { entry: PendingEntry; toolId: string }) {
  return (
    <>
      <p className="approval-reason">
        <strong id={toolId}>
          {displayText(entry.skill)}{' '}
          <span className="sep" aria-hidden="true">
            /
          </span>
          <span className="visually-hidden"> tool </span> {displayText(entry.tool)}
        </strong>{' '}
        — {displayText(entry.reason)}
      </p>
      {entry.sandbox.contained ? null : <p className="approval-uncontained">Not contained: {entry.sandbox.why}. It can do anything you can.</p>}
      {identityWarnings(entry.identity).map((warning) => (
        <p key={warning} className="approval-warning">
          {displayText(warning)}
        </p>
      ))}
    </>
  );
}

export interface ApprovalCardProps {
  entry: PendingEntry;
  /** Whether ⌘ (macOS) or Ctrl is the shortcut modifier. */
  mac: boolean;
  /** The answer given in this window, once given. */
  answered: VerdictKind | null;
  onAnswer: (verdict: VerdictKind, expires: RememberExpiry, scope: RememberScope) => Promise<void>;
  /** Heading level of the card's title within its page. */
  level?: 2 | 3;
  /** Shown under the request once it is answered (the run's progress). */
  children?: ReactNode;
  /** The voice line (listening, what was heard), shown while the request is open. */
  voice?: ReactNode;
}

/**
 * The request as a focusable region: its shortcuts act only while focus is inside it, and, like its
 * buttons, only once it has been on screen in a focused window for ARM_DELAY_MS.
 */
export function ApprovalCard({ entry, mac, answered, onAnswer, level = 2, children, voice }: ApprovalCardProps) {
  const titleId = useId();
  const toolId = useId();
  const hintId = useId();
  const expiryName = useId();
  const scopeName = useId();
  const now = useNow();
  const { armed, armedNow } = useArmed();
  const [sending, setSending] = useState<VerdictKind | null>(null);
  const [choice, setChoice] = useState<AlwaysChoice>({ expires: 'revoke', scope: 'folder' });
  const [error, setError] = useState<Error | null>(null);
  const open = answered === null;
  const Title = level === 2 ? 'h2' : 'h3';

  const answer = (verdict: VerdictKind): void => {
    if (!open || sending !== null || !offeredVerdicts(entry).includes(verdict)) return;
    setSending(verdict);
    setError(null);
    onAnswer(verdict, choice.expires, choice.scope).then(
      () => setSending(null),
      (e: unknown) => {
        setSending(null);
        setError(e instanceof Error ? e : new Error(String(e)));
      },
    );
  };

  return (
    <article
      className={`card approval${open ? '' : ' approval-answered'}`}
      aria-labelledby={`${toolId} ${titleId}`}
      aria-describedby={open ? hintId : undefined}
      tabIndex={-1}
      data-approval-id={entry.id}
      onKeyDown={(event) => {
        const verdict = verdictForKey(event, mac);
        if (verdict === null) return;
        // Swallowed even when too early, so the key cannot also press whatever button has focus.
        event.preventDefault();
        event.stopPropagation();
        if (open && armedNow()) answer(verdict);
      }}
    >
      <Eyebrow entry={entry} answered={answered} choice={choice} now={now} />
      {open && entry.code !== undefined ? (
        <p className="approval-code" title={`To answer aloud, say “run ${codeWords(entry.code)}” or “deny”`}>
          Code <kbd className="code-digits">{codeShown(entry.code)}</kbd>
        </p>
      ) : null}
      <Title id={titleId} className="approval-sentence">
        <Sentence entry={entry} />
      </Title>
      <div className="badges">
        <span className={`badge ${entry.trust === 'bundled' ? 'badge-info' : 'badge-neutral'}`} title={TRUST_LABELS[entry.trust]}>
          {entry.trust}
        </span>
        <SandboxBadges sandbox={entry.sandbox} />
      </div>
      <Reason entry={entry} toolId={toolId} />
      {open ? voice : null}
      <NetworkReach sandbox={entry.sandbox} />
      <BoxLines sandbox={entry.sandbox} />
      <ApprovalCommand entry={entry} open={open} />
      {open ? (
        <ApprovalAnswers
          entry={entry}
          mac={mac}
          armed={armed}
          sending={sending}
          choice={choice}
          onChoice={setChoice}
          onAnswer={answer}
          hintId={hintId}
          scopeName={scopeName}
          expiryName={expiryName}
        />
      ) : null}
      {error ? <ErrorNote error={error} title="The answer was not taken" /> : null}
      {children}
    </article>
  );
}
