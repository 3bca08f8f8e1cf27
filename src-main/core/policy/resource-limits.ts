/**
 * How much of the machine one run may spend: processes, memory, file size and CPU time. Every run
 * gets the defaults; a skill may ask for more in `limits:`, and gets it up to the ceiling the
 * person sets (Settings › Sandbox, `skilltray limits`), never beyond.
 */
import type { BoxRequest, ResourceLimits } from '../../shared/model.js';
import { RESOURCE_LIMIT_NAMES } from '../../shared/model.js';
import { LIMIT_KEYS } from '../skills/box-fields.js';

/** What a run gets when its skill asks for nothing: enough for any command-line tool, too little for a fork bomb or a runaway allocation. */
export const DEFAULT_LIMITS: ResourceLimits = { processes: 256, memoryMiB: 2048, fileSizeMiB: 1024, cpuSeconds: 120 };

/** The ceiling until the person sets one. */
export const DEFAULT_LIMIT_CEILING: ResourceLimits = { processes: 1024, memoryMiB: 8192, fileSizeMiB: 16_384, cpuSeconds: 600 };

/** The widest ceiling the person may set, per limit (the frontmatter's own bounds). */
export const LIMIT_MAX: ResourceLimits = Object.fromEntries([...LIMIT_KEYS.values()].map(({ limit, max }) => [limit, max])) as unknown as ResourceLimits;

/** The limits a run of a skill asking `request` gets under `ceiling`: the default, or what it asks, but never above the ceiling. */
export function effectiveLimits(request: BoxRequest['limits'], ceiling: ResourceLimits): ResourceLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const name of RESOURCE_LIMIT_NAMES) limits[name] = Math.min(request[name] ?? DEFAULT_LIMITS[name], ceiling[name]);
  return limits;
}
