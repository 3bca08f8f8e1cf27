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

/** One optional text field of the form, its placeholder an example. */
function OptionalField({
  id,
  label,
  value,
  placeholder,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  placeholder: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" value={value} spellCheck={false} autoComplete="off" placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

/** What most installs leave alone, folded: a git ref, a folder inside the source, a new name for a single skill. */
function MoreFields({
  ids,
  fields,
  set,
}: {
  ids: Record<'ref' | 'path' | 'as', string>;
  fields: Record<keyof Source, string>;
  set: (key: keyof Source, value: string) => void;
}) {
  return (
    <details className="advanced">
      <summary>Ref, folder inside, name</summary>
      <div className="install-more">
        <OptionalField id={ids.ref} label="Git ref" value={fields.ref} placeholder="main, v1.2.0, a commit" onChange={(v) => set('ref', v)} />
        <OptionalField id={ids.path} label="Folder inside the source" value={fields.path} placeholder="skills/pdf" onChange={(v) => set('path', v)} />
        <OptionalField id={ids.as} label="Install as (one skill)" value={fields.as} placeholder="a new name" onChange={(v) => set('as', v)} />
      </div>
    </details>
  );
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
        <MoreFields ids={ids} fields={fields} set={set} />
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
