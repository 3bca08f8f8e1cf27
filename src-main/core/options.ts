/**
 * Numeric options shared by the gateway and search commands. The core checks them itself
 * because HTTP, MCP and IPC callers reach it without the CLI's parser.
 */
import { skillcErrors } from '../shared/error-messages/skillc.js';

/** Throws E100 unless `value` is absent or an integer within `[min, max]`. */
export function checkIntegerOption(name: string, value: number | undefined, min: number, max = Number.POSITIVE_INFINITY): void {
  if (value === undefined) return;
  if (!Number.isInteger(value)) throw skillcErrors.invalidOption(`--${name} expects an integer, got ${value}`);
  if (value < min || value > max) {
    const range = max === Number.POSITIVE_INFINITY ? `at least ${min}` : `between ${min} and ${max}`;
    throw skillcErrors.invalidOption(`--${name} must be ${range}, got ${value}`);
  }
}
