/**
 * How the parse cache stores a parsed skill with its tree: the cache writes it, and a helper thread
 * of a cold load makes it for the skills it parses (core/skills/fresh-parse.ts), so the thread that
 * takes them parses JSON text instead of cloning objects, and stores the text as it is.
 */
import { deserialize, serialize } from 'node:v8';
import type { Skill } from '../../shared/model.js';
import type { SkillTree } from './fingerprint.js';

export interface CachePayload {
  tree: SkillTree;
  skill: Skill;
}

/** What the cache records of a parse: its tree and the skill without its shadows, which every load works out again. */
export function recordedPayload(tree: SkillTree, skill: Skill): CachePayload {
  return { tree, skill: { ...skill, shadows: [] } };
}

/**
 * Whether JSON gives `value` back exactly: strings, finite numbers (not -0), booleans, null, and
 * plain arrays (without holes) and objects of them, nothing undefined.
 */
function jsonExact(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (proto !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) if (!Object.hasOwn(value, i) || !jsonExact(value[i])) return false;
    return true;
  }
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) if (!jsonExact((value as Record<string, unknown>)[key])) return false;
  return true;
}

/** The payload as JSON text, or null when JSON would not give it back exactly (a frontmatter holding `.inf` or the like). */
export function payloadJson(payload: CachePayload): string | null {
  return jsonExact(payload) ? JSON.stringify(payload) : null;
}

/**
 * A cache row's payload: JSON text where JSON gives it back exactly (every skill but one whose
 * frontmatter holds `.inf` or the like), else V8's serialisation. JSON is what keeps a cold load
 * small: 10,000 serialisations leave ~100 MB of native buffers for the collector, 10,000 strings do not.
 */
export function encodePayload(payload: CachePayload): string | Buffer {
  return payloadJson(payload) ?? serialize(payload);
}

export function decodePayload(stored: string | Buffer): CachePayload {
  return (typeof stored === 'string' ? JSON.parse(stored) : deserialize(stored)) as CachePayload;
}
