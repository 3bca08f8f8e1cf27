import { describe, expect, it } from 'vitest';
import type { Diagnostic, Tool } from '../../../src-main/shared/model.js';
import { toolDiagnostics } from '../../../src-renderer/skills/tool-diagnostics.js';

const tool = (name: string, line: number) => ({ name, line }) as Tool;
const diag = (code: string, line: number, file = '/s/SKILL.md'): Diagnostic => ({ code, severity: 'error', message: code, file, line, breaks: [] });

describe('diagnostics by tool', () => {
  it('gives each tool the SKILL.md diagnostics from its heading up to the next tool', () => {
    const skill = {
      file: '/s/SKILL.md',
      tools: [tool('b', 30), tool('a', 10)],
      diagnostics: [diag('E1', 2), diag('E2', 12), diag('E3', 31), diag('E4', 29), diag('E5', 12, '/s/other.md')],
    };
    const byTool = toolDiagnostics(skill);
    expect(byTool.get('a')?.map((d) => d.code)).toEqual(['E2', 'E4']);
    expect(byTool.get('b')?.map((d) => d.code)).toEqual(['E3']);
  });
});
