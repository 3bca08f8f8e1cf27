/** `show` as the CLI prints it. */
import type { ShowResult } from '../../shared/gateway.js';
import { moreLinesLine } from './more-lines.js';

/** The section as printed on stdout, with `... (N more lines)` when `--max-lines` cut it. */
export function formatShow(result: ShowResult): string {
  return result.more_lines > 0 ? `${result.content}\n${moreLinesLine(result.more_lines)}` : result.content;
}
