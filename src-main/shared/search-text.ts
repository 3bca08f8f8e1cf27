/** How a search hit reads, the same in the terminal and the UI: what running a tool it found takes. */
import type { ToolBrief } from './gateway.js';

const TYPE_WORDS: Record<ToolBrief['params'][number]['type'], string> = {
  string: 'text',
  integer: 'whole number',
  number: 'number',
  boolean: 'yes/no',
  enum: 'a choice',
};

function param(p: ToolBrief['params'][number]): string {
  const details = [TYPE_WORDS[p.type], ...(p.default === null ? [] : [`default ${p.default}`])];
  return `${p.name} (${details.join(', ')})`;
}

/** What running a tool takes: `needs path (text); optional lines (whole number, default 20)`, or `takes nothing`. */
export function toolNeeds(tool: ToolBrief): string {
  const required = tool.params.filter((p) => p.required).map(param);
  const optional = tool.params.filter((p) => !p.required).map(param);
  if (required.length === 0 && optional.length === 0) return 'takes nothing';
  return [...(required.length > 0 ? [`needs ${required.join(', ')}`] : []), ...(optional.length > 0 ? [`optional ${optional.join(', ')}`] : [])].join('; ');
}
