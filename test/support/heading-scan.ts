/** The heading scan held to marked: what the scan answers for a document, and a property run over generated documents. */
import fc from 'fast-check';
import { expect } from 'vitest';
import { lexHeadings } from '../../src-main/core/markdown/blocks.js';
import { scanHeadings } from '../../src-main/core/markdown/heading-scan.js';

/** The scan's headings without offsets, to compare with marked's; null when it hands the document to marked. */
export function scanned(text: string): { level: number; text: string; line: number }[] | null {
  return scanHeadings(text)?.map(({ level, text: heading, line }) => ({ level, text: heading, line })) ?? null;
}

/**
 * Runs `runs` documents through the scan: each one it answers must be marked's headings (and
 * `each`, if given, checks every document). Returns how many it answered, so a caller can require
 * enough of them to mean something.
 */
export function scanAgreesWithMarked(documents: fc.Arbitrary<string>, runs: number, each?: (text: string) => void): number {
  let answered = 0;
  fc.assert(
    fc.property(documents, (text) => {
      each?.(text);
      const fast = scanned(text);
      if (fast === null) return;
      answered++;
      expect(fast).toEqual(lexHeadings(text));
    }),
    { numRuns: runs },
  );
  return answered;
}
