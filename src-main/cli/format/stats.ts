/** `stats` as the CLI prints it. */
import type { StatsData, StatsResult, StatsSummary } from '../../shared/gateway.js';

function countLines(entries: readonly { count: number; label: string }[]): string[] {
  if (entries.length === 0) return ['  (none)'];
  const width = Math.max(...entries.map((entry) => String(entry.count).length));
  return entries.map((entry) => `  ${String(entry.count).padStart(width)}  ${entry.label}`);
}

/** Text form for people: the same information as the JSON, one entry per line. */
export function formatStats(result: StatsResult): string {
  const lines = [`${result.skill} (${result.skill_path})`];
  lines.push(result.period.start === null ? 'period: no accesses' : `period: ${result.period.start} to ${result.period.end}`);
  const filters = [
    result.filters.since === null ? null : `since ${result.filters.since}`,
    result.filters.until === null ? null : `until ${result.filters.until}`,
    result.filters.projects.length === 0 ? null : `projects ${result.filters.projects.join(', ')}`,
  ].filter((part) => part !== null);
  if (filters.length > 0) lines.push(`filters: ${filters.join('; ')}`);
  lines.push(`${result.query}:`);
  const data = result.data;
  switch (result.query) {
    case 'summary': {
      const summary = data as StatsSummary;
      lines.push(
        `  total accesses:  ${summary.total_accesses}`,
        `  unique sections: ${summary.unique_sections}`,
        `  unique files:    ${summary.unique_files}`,
        `  errors:          ${summary.error_count}`,
      );
      break;
    }
    case 'sections':
      lines.push(...countLines((data as StatsData['sections']).map((e) => ({ count: e.count, label: `${e.file}#${e.section}` }))));
      break;
    case 'files':
      lines.push(...countLines((data as StatsData['files']).map((e) => ({ count: e.count, label: e.file }))));
      break;
    case 'commands':
      lines.push(...countLines(Object.entries(data as StatsData['commands']).map(([command, count]) => ({ count, label: command }))));
      break;
    case 'projects':
      lines.push(...countLines((data as StatsData['projects']).map((e) => ({ count: e.count, label: e.project }))));
      break;
    case 'errors':
      lines.push(...countLines((data as StatsData['errors']).map((e) => ({ count: e.count, label: `${e.command} ${e.target}: ${e.error}` }))));
      break;
    case 'search':
      lines.push(...countLines((data as StatsData['search']).map((e) => ({ count: e.count, label: e.query }))));
      break;
  }
  return lines.join('\n');
}
