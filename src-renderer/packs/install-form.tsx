/**
 * Installing a pack from the UI: a git URL, a folder, a .zip or a .tar.gz on this computer is
 * scanned first (nothing is written), the report is shown, and only the person's click on it
 * installs — with the digest of the report they saw.
 */
import { useId, useState, type FormEvent } from 'react';
import type { PackChange, ScanReport } from '../../src-main/shared/packs.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { ConfirmReport } from './confirm-report.js';
import { ScanReportView } from './scan-report.js';

interface Source {
  source: string;
  ref?: string;
  path?: string;
  as?: string;
}

/** The form's fields as the contract's source: empty fields left out. */
function sourceOf(fields: Record<keyof Source, string>): Source {
  const trimmed = Object.entries(fields)
    .map(([k, v]) => [k, v.trim()] as const)
    .filter(([, v]) => v !== '');
  return Object.fromEntries(trimmed) as unknown as Source;
}

/** The install form and, once scanned, the report with its confirm; `onInstalled` hears of each install. */
export function InstallForm({ onInstalled }: { onInstalled: (change: PackChange) => void }) {
  const client = useClient();
  const announce = useAnnounce();
  const ids = { source: useId(), ref: useId(), path: useId(), as: useId() };
  const [fields, setFields] = useState<Record<keyof Source, string>>({ source: '', ref: '', path: '', as: '' });
  const [scanned, setScanned] = useState<{ source: Source; report: ScanReport } | null>(null);
  const [busy, setBusy] = useState<'scan' | 'install' | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const set = (key: keyof Source, value: string): void => setFields((prev) => ({ ...prev, [key]: value }));

  const scan = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const source = sourceOf(fields);
    setBusy('scan');
    setError(null);
    setScanned(null);
    client.scanPack(source).then(
      (report) => {
        setBusy(null);
        setScanned({ source, report });
        announce(`Scanned ${report.pack || 'the archive'}: ${report.findings.length} findings`);
      },
      (e: Error) => {
        setBusy(null);
        setError(e);
      },
    );
  };

  const install = (force: boolean): void => {
    if (scanned === null) return;
    setBusy('install');
    setError(null);
    client.installPack({ ...scanned.source, confirm: scanned.report.digest, ...(force ? { force: true } : {}) }).then(
      (change) => {
        setBusy(null);
        setScanned(null);
        setFields({ source: '', ref: '', path: '', as: '' });
        announce(`${change.action === 'reinstalled' ? 'Reinstalled' : 'Installed'} pack ${change.pack}`);
        onInstalled(change);
      },
      (e: Error) => {
        setBusy(null);
        setError(e);
      },
    );
  };

  return (
    <>
      <form className="install-form" onSubmit={scan} aria-label="Install a pack">
        <div className="field install-source">
          <label htmlFor={ids.source}>Git URL, folder, .zip or .tar.gz</label>
          <input
            id={ids.source}
            type="text"
            value={fields.source}
            required
            spellCheck={false}
            autoComplete="off"
            placeholder="https://github.com/you/skills.git or /home/you/my-skills"
            onChange={(e) => set('source', e.target.value)}
          />
        </div>
        <details className="advanced">
          <summary>Ref, folder inside, name</summary>
          <div className="install-more">
            <div className="field">
              <label htmlFor={ids.ref}>Git ref</label>
              <input
                id={ids.ref}
                type="text"
                value={fields.ref}
                spellCheck={false}
                autoComplete="off"
                placeholder="main, v1.2.0, a commit"
                onChange={(e) => set('ref', e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={ids.path}>Folder inside the source</label>
              <input
                id={ids.path}
                type="text"
                value={fields.path}
                spellCheck={false}
                autoComplete="off"
                placeholder="skills/pdf"
                onChange={(e) => set('path', e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={ids.as}>Install as (one skill)</label>
              <input
                id={ids.as}
                type="text"
                value={fields.as}
                spellCheck={false}
                autoComplete="off"
                placeholder="a new name"
                onChange={(e) => set('as', e.target.value)}
              />
            </div>
          </div>
        </details>
        <div className="button-row">
          <button type="submit" className="button button-primary" disabled={busy !== null}>
            {busy === 'scan' ? 'Scanning…' : 'Scan'}
          </button>
          <span className="muted">Nothing is installed until you have read the scan report and confirmed it.</span>
        </div>
      </form>
      {error ? <ErrorNote error={error} title={busy === null && scanned ? 'Not installed' : undefined} /> : null}
      {scanned ? (
        <section className="report-card" aria-labelledby={`${ids.source}-report`}>
          <h2 id={`${ids.source}-report`}>Scan report{scanned.report.pack !== '' ? `: ${scanned.report.pack}` : ''}</h2>
          <ScanReportView report={scanned.report} />
          <ConfirmReport
            report={scanned.report}
            action="Install"
            doing="Installing…"
            busy={busy === 'install'}
            onConfirm={install}
            onCancel={() => setScanned(null)}
          />
        </section>
      ) : null}
    </>
  );
}
