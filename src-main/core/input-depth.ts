/**
 * How deep an operation's input may nest, checked before any work: a body of 1 MiB can nest half a
 * million levels, and whatever walks it recursively — validation, JSON.stringify for history —
 * overflows the stack a few thousand levels down. The check itself walks with its own stack.
 */

/** Levels of objects and arrays an input may hold (`{}` is one): far past any tool's arguments. */
export const MAX_INPUT_DEPTH = 64;

/** Whether `value` nests objects and arrays deeper than `max` levels. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** What a history row keeps of arguments that nest too deep: each top-level value, or a note where one nests past `max`. */
export function shallowArguments(args: unknown, max: number): Record<string, unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return {};
  return Object.fromEntries(Object.entries(args).map(([key, value]) => [key, nestsDeeperThan(value, max) ? '[nested too deep: not kept]' : value]));
}
