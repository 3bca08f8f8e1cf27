/** `open` as the CLI writes it to stdout. */
import type { OpenResult } from '../../shared/gateway.js';
import { moreLinesLine } from './more-lines.js';

/** What `open` writes to stdout: the bytes, then `... (N more lines)` when cut. */
export function formatOpen(result: OpenResult): string | Buffer {
  const more = result.more_lines > 0 ? `${moreLinesLine(result.more_lines)}\n` : '';
  if (result.encoding === 'utf-8') return result.content + more;
  return Buffer.concat([Buffer.from(result.content, 'base64'), Buffer.from(more, 'utf8')]);
}
