/** E020 (no such section) as people read it, in the terminal and in an MCP tool's text alike. */

/** What of a coded error this reads: its `error[E…]: …` line and its details. */
interface CodedError {
  format(): string;
  details?: Readonly<Record<string, unknown>> | undefined;
}

/** E020's full text: the error line and, when there are suggestions, the "Did you mean" list. */
export function formatSectionNotFound(error: CodedError): string {
  const suggestions = (error.details?.suggestions ?? []) as { text: string; file: string }[];
  if (suggestions.length === 0) return error.format();
  return [error.format(), '', 'Did you mean one of these?', ...suggestions.map((s) => `  - ${s.text} (${s.file})`)].join('\n');
}
