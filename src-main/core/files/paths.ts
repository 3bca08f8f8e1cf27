/** Paths ordered, contained and made canonical: what every part that lists or guards a path asks. */
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const SURROGATE = /[\uD800-\uDFFF]/;

/** Bytewise (UTF-8) ordering of relative paths, as RFC-0002 asks for listings. */
export function compareBytewise(a: string, b: string): number {
  // Without surrogates, UTF-16 code unit order is code point order, which UTF-8 keeps: a sort of
  // 5,000 paths then allocates nothing. Pairs and lone surrogates (encoded as U+FFFD) take the long way.
  if (SURROGATE.test(a) || SURROGATE.test(b)) return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when `child` (canonical) is `root` (canonical) or inside it. */
export function isInside(root: string, child: string): boolean {
  if (child === root) return true;
  const rel = relative(root, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** Resolves the longest existing prefix of `path` through symlinks and appends the rest. */
export function canonicalise(path: string): { abs: string; exists: boolean } {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      return { abs: join(realpathSync(current), ...rest), exists: rest.length === 0 };
    } catch {
      const parent = dirname(current);
      if (parent === current) return { abs: path, exists: false };
      rest.unshift(basename(current));
      current = parent;
    }
  }
}

/** Canonical absolute form of `path`, which may not exist: `.`/`..` and symlinks resolved as far as it exists. */
export function canonicalPath(path: string): string {
  return canonicalise(resolve(path)).abs;
}
