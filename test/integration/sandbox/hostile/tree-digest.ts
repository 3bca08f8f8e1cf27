/** One hash of everything under a folder — each entry's path, kind, mode, content or link target — to show nothing there changed. */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** The digest of the tree at `root`, not following links; `skip` names relative paths left out (and what is under them). */
export function treeDigest(root: string, skip: readonly string[] = []): string {
  const hash = createHash('sha256');
  const walk = (rel: string): void => {
    const path = rel === '' ? root : join(root, rel);
    const stat = lstatSync(path);
    hash.update(`${rel}\0${stat.mode}\0`);
    if (stat.isSymbolicLink()) hash.update(readlinkSync(path));
    else if (stat.isFile()) hash.update(readFileSync(path));
    else if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) {
        const child = rel === '' ? name : `${rel}/${name}`;
        if (!skip.includes(child)) walk(child);
      }
    }
    hash.update('\0');
  };
  walk('');
  return hash.digest('hex');
}
