/** One approval request: everything that will run, exactly, and the three answers. */
import { useId, useState, type ReactNode } from 'react';
import type { PendingEntry, VerdictKind } from '../../src-main/shared/runs.js';
import { ErrorNote } from '../app/error-note.js';
import { formatClock, formatCountdown, formatDuration } from '../app/format.js';
import { useNow } from '../app/use-now.js';
import { ariaShortcut, shortcutLabel, verdictForKey } from './approval-keys.js';
import { SURFACE_LABELS, TRUST_LABELS } from './labels.js';
import { useArmed } from './use-armed.js';
import { visibleParts } from './visible-text.js';

/** A value in quotes with its invisible characters spelled out as marked escapes. */
export function VisibleText({ value }: { value: string }) {
  return (
    <code className="visible-text">
      <span className="quote" aria-hidden="true">&quot;</span>
      {visibleParts(value).map((part, i) =>
        part.kind === 'text' ? (
          <span key={i}>{part.text}</span>
        ) : (
          <span key={i} className="escape" title={`invisible character U+${part.codePoint.toString(16).toUpperCase().padStart(4, '0')}`}>
            {part.text}
          </span>
        ),
      )}
      <span className="quote" aria-hidden="true">&quot;</span>
    </code>
  );
}

/** The argv the program will receive, one argument per line, numbered as the program sees them. */
export function ArgumentList({ argv }: { argv: string[] }) {
  if (argv.length === 0) return <p className="muted">No arguments.</p>;
  return (
    <ol className="argv" aria-label={`${argv.length} ${argv.length === 1 ? 'argument' : 'arguments'}`}>
      {argv.map((arg, i) => (
        <li key={i}>
          <span className="argv-index" aria-hidden="true">
            {i + 1}
          </span>
          <VisibleText value={arg} />
        </li>
      ))}
    </ol>
  );
}

const VERDICT_LABELS: Record<VerdictKind, string> = { once: 'Run once', always: 'Always allow this tool', deny: 'Deny' };
const VERDICT_CLASSES: Record<VerdictKind, string> = { once: 'button button-primary', always: 'button', deny: 'button button-danger' };

export interface ApprovalCardProps {
  entry: PendingEntry;
  /** Whether ⌘ (macOS) or Ctrl is the shortcut modifier. */
  mac: boolean;
  /** The answer given in this window, once given. */
  answered: VerdictKind | null;
  onAnswer: (verdict: VerdictKind) => Promise<void>;
  /** Heading level of the card's title within its page. */
  level?: 2 | 3;
  /** Shown under the request once it is answered (the run's progress). */
  children?: ReactNode;
}

/**
 * The request as a focusable region: its shortcuts act only while focus is inside it, and, like its
 * buttons, only once it has been on screen in a focused window for ARM_DELAY_MS.
 */
export function ApprovalCard({ entry, mac, answered, onAnswer, level = 2, children }: ApprovalCardProps) {
  const titleId = useId();
  const hintId = useId();
  const now = useNow();
  const { armed, armedNow } = useArmed();
  const [sending, setSending] = useState<VerdictKind | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const open = answered === null;
  const Title = level === 2 ? 'h2' : 'h3';
  const Sub = level === 2 ? 'h3' : 'h4';

  const answer = (verdict: VerdictKind): void => {
    if (!open || sending !== null) return;
    setSending(verdict);
    setError(null);
    onAnswer(verdict).then(
      () => setSending(null),
      (e: unknown) => {
        setSending(null);
        setError(e instanceof Error ? e : new Error(String(e)));
      },
    );
  };

  const remaining = entry.expiresAt - now;
  return (
    <article
      className={`card approval${open ? '' : ' approval-answered'}`}
      aria-labelledby={titleId}
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
      <header className="approval-head">
        <div>
          <p className="eyebrow">{open ? 'Approval needed' : answered === 'deny' ? 'Denied' : answered === 'always' ? 'Allowed (remembered)' : 'Allowed once'}</p>
          <Title id={titleId} className="approval-title">
            {entry.skill} <span className="sep" aria-hidden="true">/</span>
            <span className="visually-hidden"> tool </span> {entry.tool}
          </Title>
          <p className="approval-reason">{entry.reason}</p>
        </div>
        <div className="badges">
          <span className={`badge ${entry.trust === 'bundled' ? 'badge-info' : 'badge-neutral'}`}>{entry.trust}</span>
          <span className={`badge ${entry.readOnly ? 'badge-ok' : 'badge-warn'}`}>{entry.readOnly ? 'read-only' : 'may change things'}</span>
        </div>
      </header>

      <dl className="facts">
        <div>
          <dt>Asked by</dt>
          <dd>
            {SURFACE_LABELS[entry.surface]} <span className="muted">({entry.surface})</span>
          </dd>
        </div>
        <div>
          <dt>Trust</dt>
          <dd>{TRUST_LABELS[entry.trust]}</dd>
        </div>
        <div>
          <dt>Read-only</dt>
          <dd>{entry.readOnly ? 'yes' : 'no'}</dd>
        </div>
        {open ? (
          <div>
            <dt>Expires</dt>
            <dd className={remaining < 30_000 ? 'text-warn' : undefined}>
              in {formatCountdown(remaining)} <span className="muted">(at {formatClock(entry.expiresAt)})</span>
            </dd>
          </div>
        ) : null}
      </dl>

      <section className="approval-command" aria-label="What will run">
        <Sub className="field-title">Program</Sub>
        <p className="program">
          <VisibleText value={entry.programPath} />
        </p>
        <Sub className="field-title">Arguments, one per line, exactly as passed</Sub>
        <ArgumentList argv={entry.argv} />
        <dl className="facts">
          <div>
            <dt>Working directory</dt>
            <dd>
              <VisibleText value={entry.cwd} />
            </dd>
          </div>
          <div>
            <dt>Timeout</dt>
            <dd>{formatDuration(entry.timeoutMs)}</dd>
          </div>
          <div>
            <dt>Environment passed</dt>
            <dd>{entry.env.length === 0 ? <span className="muted">only the standard allow-list</span> : entry.env.map((name) => <code key={name} className="chip">{name}</code>)}</dd>
          </div>
        </dl>
      </section>

      {open ? (
        <div className="approval-actions">
          <div className="button-row" role="group" aria-label="Answer">
            {(['once', 'always', 'deny'] as const).map((verdict) => (
              <button
                key={verdict}
                type="button"
                className={VERDICT_CLASSES[verdict]}
                disabled={!armed || sending !== null}
                aria-keyshortcuts={ariaShortcut(verdict, mac)}
                onClick={() => answer(verdict)}
              >
                {sending === verdict ? 'Sending…' : VERDICT_LABELS[verdict]}
                <kbd aria-hidden="true">{shortcutLabel(verdict, mac)}</kbd>
              </button>
            ))}
          </div>
          <p id={hintId} className="hint">
            Shortcuts work while this request has focus. Always allow remembers this tool until the skill changes on disk.
          </p>
        </div>
      ) : null}
      {error ? <ErrorNote error={error} title="The answer was not taken" /> : null}
      {children}
    </article>
  );
}
