/**
 * The yes under a scan report: what stops it (an archive unsafe to extract, a name clash), the
 * extra tick high-severity findings need (the CLI's --force), and the button that confirms exactly
 * the report shown — its digest goes with the click, so a source that changed since is refused.
 */
import { useId, useState } from 'react';
import type { ScanReport } from '../../src-main/shared/packs.js';
import { installBlocker } from '../../src-main/shared/pack-text.js';

/** `action` names the button (Install, Update); `doing` is its label while it works. */
export function ConfirmReport({
  report,
  action,
  doing,
  busy,
  onConfirm,
  onCancel,
}: {
  report: ScanReport;
  action: string;
  doing: string;
  busy: boolean;
  onConfirm: (force: boolean) => void;
  onCancel: () => void;
}) {
  const forceId = useId();
  const [force, setForce] = useState(false);
  const blocker = installBlocker(report);
  const high = report.worst === 'high';
  return (
    <div className="confirm-report">
      {blocker !== null ? (
        <p className="note note-error" role="alert">
          <strong className="note-title">This pack cannot be installed</strong>
          Because {blocker}.
        </p>
      ) : high ? (
        <div className="note note-error">
          <strong className="note-title">High-severity findings</strong>
          <p>Skilltray refuses this pack unless you read the findings above and trust it anyway.</p>
          <label className="check" htmlFor={forceId}>
            <input id={forceId} type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} />I read the findings and trust this pack
          </label>
        </div>
      ) : report.findings.length > 0 ? (
        <p className="note note-warn">Read the findings above: {action.toLowerCase()} only if they are what you expect of this pack.</p>
      ) : null}
      <div className="button-row">
        {blocker === null ? (
          <button
            type="button"
            className={`button ${high ? 'button-danger' : 'button-primary'}`}
            disabled={busy || (high && !force)}
            onClick={() => onConfirm(high && force)}
          >
            {busy ? doing : high ? `${action} anyway` : action}
          </button>
        ) : null}
        <button type="button" className="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </div>
  );
}
