/** The checkout's bundled packs, loaded by the real loader over a bundled root as the app loads them. */
import { join } from 'node:path';
import { expect } from 'vitest';
import { BUNDLED_MANIFEST } from '../../../src-main/core/config.js';
import { readBundledManifest } from '../../../src-main/core/skills/bundled-manifest.js';
import { SkillRegistry } from '../../../src-main/core/skills/registry.js';
import { renderCommand } from '../../../src-main/core/template/render-command.js';
import type { RenderedCommand, Skill, SkillRoot } from '../../../src-main/shared/model.js';

/** The repository's `skills/` directory. */
export const SKILLS_DIR = join(import.meta.dirname, '..', '..', '..', 'skills');

export const BUNDLED_ROOT: SkillRoot = { path: SKILLS_DIR, kind: 'bundled', trust: 'bundled', syntax: 'angle' };

/** The checked-in manifest that makes them bundled. */
export const MANIFEST = join(SKILLS_DIR, '..', BUNDLED_MANIFEST);

/** Every bundled pack, freshly loaded and checked against the manifest. */
export function loadPacks(): SkillRegistry {
  return new SkillRegistry([BUNDLED_ROOT], { manifest: () => readBundledManifest(MANIFEST) }).load();
}

/** One bundled pack, which must have loaded cleanly. */
export function pack(name: string): Skill {
  const skill = loadPacks().get(name);
  if (skill === undefined) throw new Error(`no bundled pack '${name}' in ${SKILLS_DIR}`);
  expect(skill.diagnostics).toEqual([]);
  expect(skill.state).toBe('ok');
  return skill;
}

/** The argv a call renders to (cwd is irrelevant to rendering). */
export function argv(skill: Skill, tool: string, args: unknown): string[] {
  const rendered: RenderedCommand = renderCommand(skill, tool, args, { cwd: '/' });
  return [rendered.program, ...rendered.args];
}
