/**
 * An open approval's footer, which stays on screen: the answers as buttons with their shortcuts, and
 * where an Always applies and how long it lasts, offered only as far as this request takes them.
 */
import type { PendingEntry, RememberExpiry, RememberScope, VerdictKind } from '../../src-main/shared/runs.js';
import { ariaShortcut, shortcutLabel } from './approval-keys.js';

const VERDICT_LABELS: Record<VerdictKind, string> = { once: 'Run once', always: 'Always allow', deny: 'Deny' };
const VERDICT_CLASSES: Record<VerdictKind, string> = { once: 'button button-primary', always: 'button', deny: 'button button-danger' };
export const EXPIRY_LABELS: Record<RememberExpiry, string> = { revoke: 'until I revoke', session: 'for this session' };
export const SCOPE_LABELS: Record<RememberScope, string> = { folder: 'in this folder', anywhere: 'in any folder' };

/** The answers a request takes: an Always it does not take is not offered at all (its skill cannot be vouched for). */
export function offeredVerdicts(entry: PendingEntry): VerdictKind[] {
  return (['once', 'always', 'deny'] as const).filter((verdict) => verdict !== 'always' || entry.rememberScopes.length > 0);
}

/** Where and how long an Always holds, as the person chose it before answering. */
export interface AlwaysChoice {
  expires: RememberExpiry;
  scope: RememberScope;
}

export interface ApprovalAnswersProps {
  entry: PendingEntry;
  mac: boolean;
  /** The buttons wait until the request has been on screen in a focused window long enough. */
  armed: boolean;
  /** The answer on its way, if any. */
  sending: VerdictKind | null;
  choice: AlwaysChoice;
  onChoice: (choice: AlwaysChoice) => void;
  onAnswer: (verdict: VerdictKind) => void;
  /** The id of the hidden hint that describes the card's shortcuts. */
  hintId: string;
  scopeName: string;
  expiryName: string;
}

/** Where an Always applies: a choice when the request takes both, a fact when it takes only this folder. */
function ScopeChoice({ entry, choice, onChoice, scopeName }: Pick<ApprovalAnswersProps, 'entry' | 'choice' | 'onChoice' | 'scopeName'>) {
  const scopes = entry.rememberScopes;
  if (scopes.length > 1) {
    return (
      <fieldset className="expiry">
        <legend>Always applies</legend>
        {scopes.map((scope) => (
          <label key={scope} title={scope === 'folder' ? `${entry.cwd} and the folders inside it` : 'wherever it runs: it is read-only'}>
            <input type="radio" name={scopeName} value={scope} checked={choice.scope === scope} onChange={() => onChoice({ ...choice, scope })} />{' '}
            {SCOPE_LABELS[scope]}
          </label>
        ))}
      </fieldset>
    );
  }
  if (scopes.length === 1) {
    return (
      <p className="expiry" title={`${entry.cwd} and the folders inside it`}>
        <strong>Always applies</strong> in this folder only
      </p>
    );
  }
  return null;
}

export function ApprovalAnswers({ entry, mac, armed, sending, choice, onChoice, onAnswer, hintId, scopeName, expiryName }: ApprovalAnswersProps) {
  return (
    <footer className="approval-actions">
      <div className="button-row" role="group" aria-label="Answer">
        {offeredVerdicts(entry).map((verdict) => (
          <button
            key={verdict}
            type="button"
            className={VERDICT_CLASSES[verdict]}
            disabled={!armed || sending !== null}
            aria-keyshortcuts={ariaShortcut(verdict, mac)}
            onClick={() => onAnswer(verdict)}
          >
            {sending === verdict ? 'Sending…' : VERDICT_LABELS[verdict]}
            <kbd aria-hidden="true">{shortcutLabel(verdict, mac)}</kbd>
          </button>
        ))}
      </div>
      <ScopeChoice entry={entry} choice={choice} onChoice={onChoice} scopeName={scopeName} />
      {entry.rememberScopes.length > 0 ? (
        <fieldset className="expiry">
          <legend>Always lasts</legend>
          {(['revoke', 'session'] as const).map((expires) => (
            <label key={expires}>
              <input type="radio" name={expiryName} value={expires} checked={choice.expires === expires} onChange={() => onChoice({ ...choice, expires })} />{' '}
              {EXPIRY_LABELS[expires]}
            </label>
          ))}
        </fieldset>
      ) : null}
      <p id={hintId} className="visually-hidden">
        Shortcuts work while this request has focus. Always allow holds in this folder (or, for a read-only tool, in any folder you choose), lasts until you
        revoke it or for this session, and lapses when the skill, its program or its sandbox changes.
      </p>
    </footer>
  );
}
