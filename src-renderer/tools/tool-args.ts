/** A tool form's values as the `args` of a run: typed per parameter, blanks left out so the core can say what is missing. */
import type { ToolParam } from '../../src-main/shared/model.js';

/** What a form control holds: text (inputs, selects) or a checkbox's state. */
export type FormValue = string | boolean;

/**
 * Booleans pass as booleans (an unchecked optional one is left out, so its default applies),
 * numbers as numbers when they parse (otherwise as typed, for the core's E503), blank text is
 * left out. The core checks everything again against the Parameters table.
 */
export function toolArgs(params: readonly ToolParam[], values: Readonly<Record<string, FormValue | undefined>>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const param of params) {
    const value = values[param.name];
    if (param.type === 'boolean') {
      if (value === true) args[param.name] = true;
      else if (param.required) args[param.name] = false;
      continue;
    }
    if (typeof value !== 'string' || value.trim() === '') continue;
    if (param.type === 'integer' || param.type === 'number') {
      const number = Number(value.trim());
      args[param.name] = Number.isFinite(number) ? number : value;
    } else {
      args[param.name] = value;
    }
  }
  return args;
}
