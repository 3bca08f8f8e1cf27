/**
 * What will run, under an approval's sentence: the command line with the caller's values marked, the
 * fixed safety flags folded away, and the exact program, arguments and facts one click away.
 */
import { shownArguments } from '../../src-main/shared/approval-text.js';
import { displayText } from '../../src-main/shared/display-text.js';
import { describePin } from '../../src-main/shared/identity-text.js';
import type { PendingEntry } from '../../src-main/shared/runs.js';
import { formatClock, formatDuration } from '../app/format.js';
import { commandWords } from './command-words.js';
import { SURFACE_LABELS } from './labels.js';
import { ArgumentList, VisibleText, Words } from './visible-text.js';

/** The flags the skill always adds, folded under one line: they are the skill's, not the caller's. */
function SafetyFlags({ entry }: { entry: PendingEntry }) {
  const safety = shownArguments(entry.argv, entry.supplied).filter((a) => a.hardening);
  if (safety.length === 0) return null;
  return (
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
  );
}

/** Who pinned skill, where, asked by whom, for how long, with which environment: what the sentence leaves out. */
function Facts({ entry, open }: { entry: PendingEntry; open: boolean }) {
  return (
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
  );
}

export function ApprovalCommand({ entry, open }: { entry: PendingEntry; open: boolean }) {
  return (
    <section className="approval-command" aria-label="What will run">
      <p className="command-line">
        <code>
          <Words words={commandWords(entry)} />
        </code>
      </p>
      {entry.supplied.length > 0 ? <p className="command-key">Highlighted: values the caller chose. Everything else is the skill&apos;s own command.</p> : null}
      <SafetyFlags entry={entry} />
      <details className="approval-exact">
        <summary>Exact program and arguments</summary>
        <p className="program">
          <VisibleText value={entry.programPath} />
        </p>
        <ArgumentList argv={entry.argv} supplied={entry.supplied} />
        <Facts entry={entry} open={open} />
      </details>
    </section>
  );
}
