/**
 * One approval request: a sentence a person reads in two seconds, the command with the caller's
 * values set apart and the fixed safety flags folded away, the exact argv one click away, and the
 * three answers in a footer that stays on screen.
 */
import { useId, useState, type ReactNode } from 'react';
import { shownArguments } from '../../src-main/shared/approval-text.js';
import { describePin, identityWarnings } from '../../src-main/shared/identity-text.js';
import { displayText, visibleParts } from '../../src-main/shared/display-text.js';
import { commandWords, fitWords, sentenceFrame, type CommandWord } from './command-words.js';
import type { PendingEntry, RememberExpiry, RememberScope, SandboxView, VerdictKind } from '../../src-main/shared/runs.js';
import { ErrorNote } from '../app/error-note.js';
import { formatClock, formatCountdown, formatDuration } from '../app/format.js';
import { useNow } from '../app/use-now.js';
import { ariaShortcut, shortcutLabel, verdictForKey } from './approval-keys.js';
import { BoxLines } from './box-lines.js';
import { SURFACE_LABELS, TRUST_LABELS, sandboxBadges } from './labels.js';
import { NetworkReach } from './network-reach.js';
import { useArmed } from './use-armed.js';
import { codeShown, codeWords } from '../../src-main/shared/voice.js';

/** The characters of a value with its invisible ones spelled out as marked escapes. */
function Visible({ value }: { value: string }) {
  return (
    <>
      {visibleParts(value).map((part, i) =>
        part.kind === 'text' ? (
          <span key={i}>{part.text}</span>
        ) : (
          <span key={i} className="escape" title={`invisible character U+${part.codePoint.toString(16).toUpperCase().padStart(4, '0')}`}>
            {part.text}
          </span>
        ),
      )}
    </>
  );
}

/** A value in quotes with its invisible characters spelled out as marked escapes. */
export function VisibleText({ value }: { value: string }) {
  return (
    <code className="visible-text">
      <span className="quote" aria-hidden="true">
        &quot;
      </span>
      <Visible value={value} />
      <span className="quote" aria-hidden="true">
        &quot;
      </span>
    </code>
  );
}

/** The argv the program will receive, one argument per line, numbered as the program sees them; the caller's values marked. */
export function ArgumentList({ argv, supplied = [] }: { argv: string[]; supplied?: readonly number[] }) {
  if (argv.length === 0) return <p className="muted">No arguments.</p>;
  return (
    <ol className="argv" aria-label={`${argv.length} ${argv.length === 1 ? 'argument' : 'arguments'}`}>
      {argv.map((arg, i) => (
        <li key={i} className={supplied.includes(i) ? 'argv-supplied' : undefined}>
          <span className="argv-index" aria-hidden="true">
            {i + 1}
          </span>
          <VisibleText value={arg} />
          {supplied.includes(i) ? <span className="argv-origin">from the caller</span> : null}
        </li>
      ))}
    </ol>
  );
}

/** Command words as code: the caller's values marked, an argument holding a space set apart so it reads as one word. */
function Words({ words, cut = false }: { words: CommandWord[]; cut?: boolean }) {
  return (
    <>
      {words.map((word, i) => (
        <span key={word.index}>
          {i > 0 ? ' ' : null}
          <span className={`${word.index === -1 ? 'command-program' : 'command-arg'}${word.spaced ? ' command-arg-spaced' : ''}`}>
            {word.parts.map((part, j) =>
              part.supplied ? (
                <mark key={j} className="supplied" title="chosen by the caller">
                  <Visible value={part.text} />
                </mark>
              ) : (
                <Visible key={j} value={part.text} />
              ),
            )}
          </span>
        </span>
      ))}
      {cut ? ' …' : null}
    </>
  );
}

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

/** How much of the command the sentence shows before it says "…": the rest is in the command line under it. */
const SENTENCE_COMMAND_CHARS = 48;

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

const VERDICT_LABELS: Record<VerdictKind, string> = { once: 'Run once', always: 'Always allow', deny: 'Deny' };
const VERDICT_CLASSES: Record<VerdictKind, string> = { once: 'button button-primary', always: 'button', deny: 'button button-danger' };
const EXPIRY_LABELS: Record<RememberExpiry, string> = { revoke: 'until I revoke', session: 'for this session' };
const SCOPE_LABELS: Record<RememberScope, string> = { folder: 'in this folder', anywhere: 'in any folder' };

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
  const [expires, setExpires] = useState<RememberExpiry>('revoke');
  const [scope, setScope] = useState<RememberScope>('folder');
  const [error, setError] = useState<Error | null>(null);
  const open = answered === null;
  const Title = level === 2 ? 'h2' : 'h3';
  const args = shownArguments(entry.argv, entry.supplied);
  const safety = args.filter((a) => a.hardening);
  const warnings = identityWarnings(entry.identity);
  const scopes = entry.rememberScopes;
  // An Always this request does not take is not offered at all (its skill cannot be vouched for).
  const verdicts = (['once', 'always', 'deny'] as const).filter((verdict) => verdict !== 'always' || scopes.length > 0);

  const answer = (verdict: VerdictKind): void => {
    if (!open || sending !== null || !verdicts.includes(verdict)) return;
    setSending(verdict);
    setError(null);
    onAnswer(verdict, expires, scope).then(
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
      <p className="eyebrow">
        {open ? (
          <>
            Approval needed <span className={remaining < 30_000 ? 'text-warn' : 'eyebrow-quiet'}>· expires in {formatCountdown(remaining)}</span>
          </>
        ) : answered === 'deny' ? (
          'Denied'
        ) : answered === 'always' ? (
          `Allowed (remembered ${SCOPE_LABELS[scope]}, ${EXPIRY_LABELS[expires]})`
        ) : (
          'Allowed once'
        )}
      </p>
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
      {warnings.map((warning) => (
        <p key={warning} className="approval-warning">
          {displayText(warning)}
        </p>
      ))}
      {open ? voice : null}
      <NetworkReach sandbox={entry.sandbox} />
      <BoxLines sandbox={entry.sandbox} />

      <section className="approval-command" aria-label="What will run">
        <p className="command-line">
          <code>
            <Words words={commandWords(entry)} />
          </code>
        </p>
        {entry.supplied.length > 0 ? (
          <p className="command-key">Highlighted: values the caller chose. Everything else is the skill&apos;s own command.</p>
        ) : null}
        {safety.length > 0 ? (
          <details className="approval-safety">
            <summary>
              {safety.length} safety {safety.length === 1 ? 'flag' : 'flags'} the skill always adds
            </summary>
            <ul className="chips">
              {safety.map((a) => (
                <li key={a.index}>
                  <code className="chip">{a.text}</code>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        <details className="approval-exact">
          <summary>Exact program and arguments</summary>
          <p className="program">
            <VisibleText value={entry.programPath} />
          </p>
          <ArgumentList argv={entry.argv} supplied={entry.supplied} />
          <dl className="facts">
            <div>
              <dt>Skill</dt>
              <dd>{displayText(describePin(entry.identity))}</dd>
            </div>
            <div>
              <dt>Working directory</dt>
              <dd>
                <VisibleText value={entry.cwd} />
              </dd>
            </div>
            <div>
              <dt>Asked by</dt>
              <dd>
                {SURFACE_LABELS[entry.surface]}{' '}
                <span className="muted">({entry.assistant === null ? entry.surface : `${entry.surface}, assistant ${entry.assistant}`})</span>
              </dd>
            </div>
            <div>
              <dt>Timeout</dt>
              <dd>{formatDuration(entry.timeoutMs)}</dd>
            </div>
            <div>
              <dt>Environment passed</dt>
              <dd>
                {entry.env.length === 0 ? (
                  <span className="muted">only the standard allow-list</span>
                ) : (
                  entry.env.map((name) => (
                    <code key={name} className="chip">
                      {name}
                    </code>
                  ))
                )}
              </dd>
            </div>
            {open ? (
              <div>
                <dt>Expires</dt>
                <dd>at {formatClock(entry.expiresAt)}</dd>
              </div>
            ) : null}
          </dl>
        </details>
      </section>

      {open ? (
        <footer className="approval-actions">
          <div className="button-row" role="group" aria-label="Answer">
            {verdicts.map((verdict) => (
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
          {scopes.length > 1 ? (
            <fieldset className="expiry">
              <legend>Always applies</legend>
              {scopes.map((choice) => (
                <label key={choice} title={choice === 'folder' ? `${entry.cwd} and the folders inside it` : 'wherever it runs: it is read-only'}>
                  <input type="radio" name={scopeName} value={choice} checked={scope === choice} onChange={() => setScope(choice)} /> {SCOPE_LABELS[choice]}
                </label>
              ))}
            </fieldset>
          ) : scopes.length === 1 ? (
            <p className="expiry" title={`${entry.cwd} and the folders inside it`}>
              <strong>Always applies</strong> in this folder only
            </p>
          ) : null}
          {scopes.length > 0 ? (
            <fieldset className="expiry">
              <legend>Always lasts</legend>
              {(['revoke', 'session'] as const).map((choice) => (
                <label key={choice}>
                  <input type="radio" name={expiryName} value={choice} checked={expires === choice} onChange={() => setExpires(choice)} />{' '}
                  {EXPIRY_LABELS[choice]}
                </label>
              ))}
            </fieldset>
          ) : null}
          <p id={hintId} className="visually-hidden">
            Shortcuts work while this request has focus. Always allow holds in this folder (or, for a read-only tool, in any folder you choose), lasts until you
            revoke it or for this session, and lapses when the skill, its program or its sandbox changes.
          </p>
        </footer>
      ) : null}
      {error ? <ErrorNote error={error} title="The answer was not taken" /> : null}
      {children}
    </article>
  );
}
