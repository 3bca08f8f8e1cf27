/** A skill's diagnostics: code, file and line, message — what an author needs to fix it. */
import { FORMAT_NAMES, type Diagnostic } from '../../src-main/shared/model.js';

/** `file` relative to the skill directory when it lies inside it. */
export function relativeTo(dir: string, file: string): string {
  for (const sep of ['/', '\\']) if (file.startsWith(dir + sep)) return file.slice(dir.length + 1);
  return file;
}

/** Errors first, then warnings, each as `E403 SKILL.md:2 message`. */
export function DiagnosticsList({ diagnostics, dir, label }: { diagnostics: readonly Diagnostic[]; dir: string; label: string }) {
  const sorted = [...diagnostics].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return (
    <ul className="diagnostics" aria-label={label}>
      {sorted.map((d, i) => (
        <li key={i} className={`diagnostic diagnostic-${d.severity}`}>
          <span className={`badge ${d.severity === 'error' ? 'badge-bad' : 'badge-warn'}`}>
            <span className="visually-hidden">{d.severity} </span>
            {d.code}
          </span>{' '}
          <code className="location" title={`${d.file}:${d.line}`}>
            {relativeTo(dir, d.file)}:{d.line}
          </code>{' '}
          <span className="diagnostic-message">{d.message}</span>
          {d.breaks.length > 0 ? <span className="muted"> — breaks {d.breaks.map((f) => FORMAT_NAMES[f]).join(', ')}</span> : null}
        </li>
      ))}
    </ul>
  );
}
