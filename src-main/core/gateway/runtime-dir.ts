/**
 * Where a skill's runtime files (search index, access logs) live: `<home>/runtime/<name>/`, named
 * after the canonical source directory's basename (resolution itself is `skills/locate.ts`).
 */
import { join } from 'node:path';

/** `<home>/runtime/<name>/`: where a skill's search index and access log live. */
export function runtimeDir(home: string, name: string): string {
  return join(home, 'runtime', name);
}
