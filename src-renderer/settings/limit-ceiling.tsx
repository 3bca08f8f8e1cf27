/** The Settings section for resource limits: the most of each resource a skill may ask for in its `limits:`. */
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { ResourceLimits } from '../../src-main/shared/model.js';
import type { Settings } from '../../src-main/shared/runs.js';
import { describeLimits } from '../../src-main/shared/approval-text.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';

/** Each field: its label and the limit it sets. */
const FIELDS: { limit: keyof ResourceLimits; label: string }[] = [
  { limit: 'processes', label: 'Processes at once' },
  { limit: 'memoryMiB', label: 'Memory (MiB)' },
  { limit: 'fileSizeMiB', label: 'File size (MiB)' },
  { limit: 'cpuSeconds', label: 'CPU time (s)' },
];

const asText = (limits: ResourceLimits): Record<keyof ResourceLimits, string> => ({
  processes: String(limits.processes),
  memoryMiB: String(limits.memoryMiB),
  fileSizeMiB: String(limits.fileSizeMiB),
  cpuSeconds: String(limits.cpuSeconds),
});

export function LimitCeiling({ settings, onChange }: { settings: Settings; onChange: (settings: Settings) => void }) {
  const client = useClient();
  const announce = useAnnounce();
  const id = useId();
  const [values, setValues] = useState(asText(settings.limitCeiling));
  const [error, setError] = useState<Error | null>(null);
  const ceiling = settings.limitCeiling;
  // Another window (or the CLI) changed it: show the values in force.
  useEffect(() => setValues(asText(ceiling)), [ceiling]);

  const save = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    setError(null);
    client
      .setLimitCeiling({
        processes: Number(values.processes),
        memory_mb: Number(values.memoryMiB),
        file_size_mb: Number(values.fileSizeMiB),
        cpu_seconds: Number(values.cpuSeconds),
      })
      .then(
        (next) => {
          onChange(next);
          announce(`A skill may now ask for at most ${describeLimits(next.limitCeiling)}`);
        },
        (e: Error) => setError(e),
      );
  };

  return (
    <>
      <p className="muted">
        Every run is limited in processes, memory, file size and CPU time, so a fork bomb or a runaway allocation stops inside it. A skill may ask for more in
        its <code>limits:</code>, never more than this ceiling.
      </p>
      <form className="inline-form" onSubmit={save} aria-label="Resource limit ceiling">
        {FIELDS.map(({ limit, label }) => (
          <div className="field" key={limit}>
            <label htmlFor={`${id}-${limit}`}>{label}</label>
            <input
              id={`${id}-${limit}`}
              type="number"
              min={1}
              step={1}
              required
              value={values[limit]}
              onChange={(e) => setValues({ ...values, [limit]: e.target.value })}
            />
          </div>
        ))}
        <button type="submit" className="button button-primary">
          Save
        </button>
      </form>
      {error ? <ErrorNote error={error} /> : null}
    </>
  );
}
