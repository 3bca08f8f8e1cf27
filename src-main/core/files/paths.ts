/** Paths ordered and contained: the two questions every part that lists or guards a path asks. */
import { isAbsolute, relative, sep } from 'node:path';

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
