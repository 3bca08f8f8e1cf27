/** `sources` as the CLI prints it: a tree. */
import type { SourcesResult } from '../../shared/gateway.js';

/** The tree drawn with `├──`, `└──` and `│   `, ending in `... (N more)` when cut, and a last line when the skill holds more files than a walk reads. */
export function formatSources(result: SourcesResult): string {
  const lines = [result.root];
  // lastAt[d] says whether the open entry at depth d was its directory's last, i.e. whether
  // the lines below it continue its parent's rail.
  const lastAt: boolean[] = [];
  const rails = (depth: number): string => {
    let out = '';
    for (let d = 1; d < depth; d++) out += lastAt[d] ? '    ' : '│   ';
    return out;
  };
  for (const entry of result.entries) {
    lastAt[entry.depth] = entry.last;
    const label = entry.type === 'dir' ? `${entry.name}/${entry.files === undefined ? '' : ` (${entry.files} files)`}` : entry.name;
    lines.push(`${rails(entry.depth)}${entry.last ? '└── ' : '├── '}${label}`);
  }
  if (result.more > 0 && result.more_depth !== null) lines.push(`${rails(result.more_depth)}└── ... (${result.more} more)`);
  if (result.files_cap !== null)
    lines.push(`... and more files not listed: the skill holds over ${result.files_cap.toLocaleString('en-US')}, the most a walk reads`);
  return lines.join('\n');
}
