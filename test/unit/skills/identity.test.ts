import { describe, expect, it } from 'vitest';
import { identify } from '../../../src-main/core/skills/identity.js';
import type { SkillRoot } from '../../../src-main/shared/model.js';
import { makeSkill } from '../policy/skill-fixture.js';

const kode: SkillRoot = { path: '/kode/skills', kind: 'kode', trust: 'user', syntax: 'angle' };

describe('identify', () => {
  it('recomputes its own warnings on every call: a skill that no longer hides another loses its W421', () => {
    const skill = identify(makeSkill({ shadows: [{ dir: '/kode/skills/git', root: kode }] }));
    expect(skill).toMatchObject({ state: 'warnings', identity: { hides: [{ path: '/kode/skills/git', rootKind: 'kode' }] } });
    expect(skill.diagnostics.map((d) => d.code)).toEqual(['W421']);
    skill.shadows = [];
    expect(identify(skill)).toMatchObject({ state: 'ok', diagnostics: [], identity: { hides: [] } });
  });
});
