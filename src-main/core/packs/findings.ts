/**
 * The scan's findings: one builder per code with its severity, and the limits a pack must keep.
 * High findings refuse an install unless forced; an archive that is unsafe to extract (paths that
 * leave it, special files, a bomb) is never extracted at all, forced or not.
 */
import { FINDING_CODES, type FindingCode, type FindingSeverity, type ScanFinding } from '../../shared/packs.js';

/** Most files a pack may hold (the loader reads at most this many per skill). */
export const MAX_PACK_FILES = 10_000;
/** Most entries a pack may hold: files, folders (listed or implied by a path) and links together. */
export const MAX_PACK_ENTRIES = 20_000;
/** Longest symlink target read. */
export const MAX_TARGET_BYTES = 4096;
/** Largest single file. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** Largest pack, all files together. */
export const MAX_PACK_BYTES = 200 * 1024 * 1024;
/** Deepest path inside a pack, in folders (a skill is a few levels deep; a bomb nests thousands). */
export const MAX_PATH_DEPTH = 32;
/** Longest path inside a pack, in UTF-8 bytes. */
export const MAX_PATH_BYTES = 1024;

/** Severity of each code (docs/errors.md, "Pack scan findings"). */
export const SEVERITY: Record<FindingCode, FindingSeverity> = {
  S301: 'high',
  S302: 'high',
  S303: 'high',
  S304: 'low',
  S305: 'medium',
  S306: 'high',
  S307: 'high',
  S308: 'high',
  S309: 'high',
  S310: 'high',
  S311: 'high',
  S312: 'medium',
  S313: 'high',
  S314: 'high',
  S315: 'medium',
  S316: 'medium',
  S317: 'high',
  S318: 'medium',
  S319: 'high',
};

/** Codes that make a source unsafe to extract: it is refused, forced or not, and nothing of it leaves staging. */
export const UNEXTRACTABLE: ReadonlySet<FindingCode> = new Set<FindingCode>(['S307', 'S309', 'S311', 'S313']);

/** Builds a finding; `severity` overrides the code's own (a bare `eval` is medium, not high). */
export function finding(
  code: FindingCode,
  file: string,
  message: string,
  more: { line?: number; excerpt?: string; severity?: FindingSeverity } = {},
): ScanFinding {
  const excerpt = more.excerpt === undefined ? null : more.excerpt.length > 160 ? `${more.excerpt.slice(0, 159)}…` : more.excerpt;
  return { code, kind: FINDING_CODES[code], severity: more.severity ?? SEVERITY[code], file, line: more.line ?? null, message, excerpt };
}

const RANK: Record<FindingSeverity, number> = { low: 0, medium: 1, high: 2 };

/** The highest severity among `findings`, or null. */
export function worstOf(findings: readonly ScanFinding[]): FindingSeverity | null {
  let worst: FindingSeverity | null = null;
  for (const f of findings) if (worst === null || RANK[f.severity] > RANK[worst]) worst = f.severity;
  return worst;
}

/** Findings in the order a person reads them: worst first, then by file and line. */
export function sortFindings(findings: ScanFinding[]): ScanFinding[] {
  return findings.sort(
    (a, b) =>
      RANK[b.severity] - RANK[a.severity] || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || (a.line ?? 0) - (b.line ?? 0) || (a.code < b.code ? -1 : 1),
  );
}
