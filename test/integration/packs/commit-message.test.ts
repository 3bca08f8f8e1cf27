/** The commit-message prompt skill: a Kode skill whose body is resolved, never run. */
import { describe, expect, it } from 'vitest';
import { renderCommand, resolvePrompt } from '../../../src-main/core/template/render-command.js';
import { pack } from './bundled-packs.js';

const skill = pack('commit-message');

describe('commit-message prompt skill', () => {
  it('is a Kode prompt skill that plans and proposes, with no tools to run', () => {
    expect(skill.tools).toEqual([]);
    expect(skill.kode).toEqual({ primaryEnv: 'bash', permissionMode: 'plan', tools: ['shell', 'read_file'] });
    expect(skill.requires).toEqual({ bins: ['git'], env: [] });
    expect(() => renderCommand(skill, 'commit', {}, { cwd: '/' })).toThrow(expect.objectContaining({ code: 'E506' }));
  });

  it('resolves $ARGUMENTS to the arguments joined with spaces', () => {
    const prompt = resolvePrompt(skill, ['mention', 'issue #42', 'and the $& cache fix']);
    expect(prompt).toContain('Notes from the person, if any: mention issue #42 and the $& cache fix\n');
    expect(prompt).not.toContain('$ARGUMENTS');
    expect(prompt).toBe(skill.body.replace('$ARGUMENTS', () => 'mention issue #42 and the $& cache fix'));
  });

  it('resolves to a prompt that still reads well without arguments', () => {
    const prompt = resolvePrompt(skill, []);
    expect(prompt).not.toContain('$ARGUMENTS');
    expect(prompt).toContain('Notes from the person, if any: \n');
    expect(prompt).toContain('git diff --staged');
    expect(prompt).toContain('Do not run `git commit`.');
  });
});
