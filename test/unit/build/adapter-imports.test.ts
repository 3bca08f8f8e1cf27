import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

/** The rule ids lint reports for `code` as if it were the file at `filePath`. */
async function violations(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

describe('adapters reach the core only through its entry points (eslint.config.js)', () => {
  const adapterFiles = ['src-main/cli/commands/example.ts', 'src-main/server/example.ts', 'src-main/electron/example.ts'];

  it.each(adapterFiles)('%s: a static import past the facade fails lint', async (file) => {
    const depth = file.split('/').length - 2;
    const core = `${'../'.repeat(depth)}core`;
    const found = await violations(`import { isEnabled } from '${core}/store/switches.js';\nexport const x = isEnabled;\n`, file);
    expect(found).toEqual([
      expect.stringMatching(
        /^no-restricted-imports: .*an adapter reaches the core only through core\/\{api,library,operations,config,facade,runs-facade,authority\}\.js/,
      ),
    ]);
  });

  it('a lazy import() past the facade fails lint too', async () => {
    const found = await violations(`export const load = () => import('../../core/policy/profile.js');\n`, 'src-main/cli/commands/example.ts');
    expect(found).toEqual([expect.stringMatching(/^no-restricted-syntax: an adapter reaches the core only through/)]);
  });

  it('the entry points, the shared contract and core itself pass', async () => {
    const entry = `import { SkilltrayCore } from '../../core/api.js';\nimport { callOperation } from '../../core/operations.js';\nimport { nearestNames } from '../../core/facade.js';\nimport { callerOf } from '../../core/authority.js';\nimport { OPERATIONS } from '../../shared/contract.js';\nexport const all = [SkilltrayCore, callOperation, nearestNames, callerOf, OPERATIONS, () => import('../../core/library.js')];\n`;
    expect(await violations(entry, 'src-main/cli/commands/example.ts')).toEqual([]);
    expect(await violations(`import { isEnabled } from '../store/switches.js';\nexport const x = isEnabled;\n`, 'src-main/core/services/example.ts')).toEqual(
      [],
    );
  });
});
