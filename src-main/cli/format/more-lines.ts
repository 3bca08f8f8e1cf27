/** The line `--max-lines` appends when it cut something (RFC-0002:C-SHOW, C-OPEN). */
export function moreLinesLine(more: number): string {
  return `... (${more} more lines)`;
}
