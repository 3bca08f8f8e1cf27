/** The Settings section for history: how long run output is kept, what history holds, and applying retention now. */
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Settings } from '../../src-main/shared/runs.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { formatTime } from '../app/format.js';
import { useResource } from '../app/use-resource.js';

const mib = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

export function HistoryRetention({ settings, onChange }: { settings: Settings; onChange: (settings: Settings) => void }) {
  const client = useClient();
  const announce = useAnnounce();
  const daysId = useId();
  const sizeId = useId();
  const usage = useResource(
    'historyUsage',
    (c) => c.historyUsage({}),
    (e) => e.type === 'run' && e.event.type === 'finished',
  );
  const [days, setDays] = useState(String(settings.retention.outputDays));
  const [size, setSize] = useState(String(settings.retention.outputMaxMb));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  // Another window (or the CLI) changed them: show the values in force.
  useEffect(() => {
    setDays(String(settings.retention.outputDays));
    setSize(String(settings.retention.outputMaxMb));
  }, [settings.retention.outputDays, settings.retention.outputMaxMb]);

  const save = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    setError(null);
    client.setRetention({ output_days: Number(days), output_max_mb: Number(size) }).then(
      (next) => {
        onChange(next);
        announce(`Run output is now kept ${next.retention.outputDays} days, ${next.retention.outputMaxMb} MiB in all`);
      },
      (e: Error) => setError(e),
    );
  };
  const apply = (): void => {
    setError(null);
    setBusy(true);
    client.maintainHistory({}).then(
      (report) => {
        setBusy(false);
        announce(`Dropped the output of ${report.droppedByAge + report.droppedBySize} runs; state.db is ${mib(report.bytesFreed)} smaller`);
        usage.reload();
      },
      (e: Error) => {
        setBusy(false);
        setError(e);
      },
    );
  };

  return (
    <>
      <p className="muted">
        Every run’s record — who asked, what ran, when, what was decided and how it ended — is kept. Its output (up to 2 MiB) is dropped once it is older than
        the days below, and the oldest output goes first when all of it passes the size below. The app checks this every hour and vacuums state.db.
      </p>
      <form className="inline-form" onSubmit={save} aria-label="History retention">
        <div className="field">
          <label htmlFor={daysId}>Keep output for (days)</label>
          <input id={daysId} type="number" min={1} max={3650} step={1} required value={days} onChange={(e) => setDays(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={sizeId}>Keep at most (MiB of output)</label>
          <input id={sizeId} type="number" min={1} max={102400} step={1} required value={size} onChange={(e) => setSize(e.target.value)} />
        </div>
        <button type="submit" className="button button-primary">
          Save
        </button>
        <button type="button" className="button" onClick={apply} disabled={busy}>
          {busy ? 'Applying…' : 'Apply now'}
        </button>
      </form>
      {usage.data ? (
        <p className="muted">
          History holds {usage.data.runs.toLocaleString()} run{usage.data.runs === 1 ? '' : 's'}, {usage.data.runsWithOutput.toLocaleString()} of them with
          output ({mib(usage.data.outputBytes)}); state.db is {mib(usage.data.dbBytes)}
          {usage.data.freeBytes > 0 ? `, ${mib(usage.data.freeBytes)} of it free` : ''}.
          {usage.data.lastMaintenance ? ` Last checked ${formatTime(usage.data.lastMaintenance.at)}.` : ''}
        </p>
      ) : null}
      {usage.error ? <ErrorNote error={usage.error} title="History usage could not be loaded" /> : null}
      {error ? <ErrorNote error={error} /> : null}
    </>
  );
}
