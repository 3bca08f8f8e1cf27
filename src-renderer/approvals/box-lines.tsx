/** What a run's box holds, one line each (the same lines the terminal prints): what it sees, declared, may change and spend. */
import { boxLines } from '../../src-main/shared/approval-text.js';
import type { SandboxView } from '../../src-main/shared/runs.js';

export function BoxLines({ sandbox }: { sandbox: SandboxView }) {
  const lines = boxLines(sandbox);
  if (lines.length === 0) return null;
  return (
    <ul className="box-lines" aria-label="What the sandbox lets it see and do">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
