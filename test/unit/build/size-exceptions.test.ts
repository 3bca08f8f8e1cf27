/**
 * The size exceptions in eslint.config.js excuse only what is still too big: each glob of each exception must match a
 * file, and among those, one past the limit of each rule it turns off. An exception whose reason is gone fails here.
 */
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

interface SizeException {
  why: string;
  rules: string[];
  files: string[];
}

/** The limits as the project's config sets them for a file no exception names. */
async function limits(): Promise<Record<string, Linter.RuleEntry>> {
  const config = (await new ESLint({ cwd: ROOT }).calculateConfigForFile(join(ROOT, 'src-main', 'core', 'operations.ts'))) as Linter.Config;
  const rules = config.rules ?? {};
  return { 'max-lines': rules['max-lines'] as Linter.RuleEntry, 'max-lines-per-function': rules['max-lines-per-function'] as Linter.RuleEntry };
}

/** What is wrong with each exception: a glob that matches no file, or whose files are all within a rule it turns off. */
async function staleExceptions(exceptions: readonly SizeException[]): Promise<string[]> {
  const limit = await limits();
  const stale: string[] = [];
  for (const { why, rules, files } of exceptions) {
    for (const rule of rules) {
      // Only this rule, at the project's limit: what the exception turns off, turned back on.
      const eslint = new ESLint({
        cwd: ROOT,
        overrideConfigFile: true,
        errorOnUnmatchedPattern: false,
        overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser }, rules: { [rule]: limit[rule] as Linter.RuleEntry } }],
      });
      for (const glob of files) {
        const results = await eslint.lintFiles([glob]);
        if (results.length === 0) stale.push(`${glob} (${why}): matches no file`);
        else if (!results.some((result) => result.messages.some((m) => m.ruleId === rule)))
          stale.push(`${glob} (${why}): ${results.map((r) => relative(ROOT, r.filePath)).join(', ')} within ${rule}`);
      }
    }
  }
  return stale;
}

describe('size exceptions (eslint.config.js)', () => {
  it('each still excuses a file or function past the limit', async () => {
    const { sizeExceptions } = (await import(pathToFileURL(join(ROOT, 'eslint.config.js')).href)) as { sizeExceptions: SizeException[] };
    expect(sizeExceptions.length).toBeGreaterThan(0);
    expect(await staleExceptions(sizeExceptions)).toEqual([]);
  });

  it('the check names a glob that matches no file, and one whose files are within the limit', async () => {
    const stale = await staleExceptions([
      { why: 'gone', rules: ['max-lines'], files: ['src-main/core/skills/loader*.ts'] },
      { why: 'split', rules: ['max-lines', 'max-lines-per-function'], files: ['src-main/core/search/catalog.ts'] },
    ]);
    expect(stale).toEqual([
      'src-main/core/skills/loader*.ts (gone): matches no file',
      'src-main/core/search/catalog.ts (split): src-main/core/search/catalog.ts within max-lines',
      'src-main/core/search/catalog.ts (split): src-main/core/search/catalog.ts within max-lines-per-function',
    ]);
  });
});
