/** The text of a SKILL.md tool section, for tests under vitest and Playwright alike (so nothing here imports vitest). */

/** The lines of a tool section: `### tool`, its Parameters (`rows` of the table, or None.) and its Command block running `command`. */
export function toolSection(tool: string, command: string, rows: readonly string[] = []): string[] {
  const parameters = rows.length === 0 ? ['None.'] : ['| Name | Type | Required | Description |', '|---|---|---|---|', ...rows];
  return [`### ${tool}`, '', 'Runs it.', '', '#### Parameters', '', ...parameters, '', '#### Command', '', '```', command, '```', ''];
}
