/** `new`'s scaffold: any name it accepts makes a skill that checks clean; any name it refuses suggests one it accepts. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkNewNames, scaffoldText, slugOf } from '../../../src-main/core/skills/scaffold.js';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { tempDir, writeSkill } from '../../support/temp.js';

const slug = fc.stringMatching(/^[a-z0-9]{1,8}(?:-[a-z0-9]{1,8}){0,3}$/);
const toolName = fc.stringMatching(/^[a-z0-9_]{1,16}$/);

describe('the scaffold', () => {
  it('checks clean (no error, no warning) and holds one tool whose example renders, for any name and tool it accepts', () => {
    fc.assert(
      fc.property(slug, toolName, (name, tool) => {
        const root = tempDir();
        const skill = parseSkill(writeSkill(root, name, scaffoldText(name, tool)), { path: root, kind: 'home', trust: 'user', syntax: 'angle' });
        expect(skill.diagnostics).toEqual([]);
        expect(skill.tools.map((t) => [t.name, t.params.map((p) => p.name)])).toEqual([[tool, ['text']]]);
        expect(skill.readOnly).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('suggests, for any name it refuses, a slug it accepts', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), (typed) => {
        let refused: unknown = null;
        try {
          checkNewNames(typed, 'tool');
        } catch (error) {
          refused = error;
        }
        if (refused === null) return;
        expect(refused).toMatchObject({ code: 'E150' });
        const suggested = slugOf(typed);
        if (suggested !== null) expect(() => checkNewNames(suggested, 'tool')).not.toThrow();
      }),
    );
  });
});
