/**
 * docs/adr stays a set of decision records: each with its context, decision and consequences, every
 * code path and link it names still there, each listed in docs/adr/README.md, which the README links.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const ADR = join(ROOT, 'docs', 'adr');
const INDEX = 'README.md';
/** `0001-no-shell.md`: a number, then the decision in a few words. */
const RECORD_NAME = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const SECTIONS = ['Context', 'Decision', 'Consequences'];
/** A path in backticks that names something in this repository. */
const REPO_PATH = /`((?:src-main|src-renderer|test|docs|scripts|eslint|bench)\/[^`\s]*)`/g;
/** A Markdown link to a file beside the text (not a web address, not an anchor alone). */
const RELATIVE_LINK = /\]\((?!https?:|#)([^)#\s]+)(?:#[^)\s]*)?\)/g;

const read = (name: string): string => readFileSync(join(ADR, name), 'utf8');
const records = (): string[] => readdirSync(ADR).filter((name) => name !== INDEX);

/** The record's `## ` sections in order, each with the text under it. */
function sections(text: string): { heading: string; body: string }[] {
  return text
    .split(/^## /m)
    .slice(1)
    .map((part) => {
      const newline = part.indexOf('\n');
      return { heading: part.slice(0, newline).trim(), body: part.slice(newline + 1).trim() };
    });
}

/** `# 3. Allow-lists over deny-lists` → [3, 'Allow-lists over deny-lists'], or null for another first line. */
function title(text: string): [number, string] | null {
  const match = /^# (\d+)\. (.+)$/.exec(text.split('\n')[0] ?? '');
  return match === null ? null : [Number(match[1]), (match[2] ?? '').trim()];
}

describe('decision records (docs/adr)', () => {
  it('holds only records named NNNN-what.md beside its index, numbered 1, 2, 3… without a gap', () => {
    const names = records();
    for (const name of names) expect(name, name).toMatch(RECORD_NAME);
    const numbers = names.map((name) => Number(RECORD_NAME.exec(name)?.[1])).sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(numbers.length).toBeGreaterThanOrEqual(9);
  });

  it('each record has its number as title, then Context, Decision and Consequences, in that order, none empty', () => {
    for (const name of records()) {
      const text = read(name);
      expect(title(text)?.[0], `${name}: first line '# N. Title'`).toBe(Number(RECORD_NAME.exec(name)?.[1]));
      const found = sections(text);
      expect(
        found.map((section) => section.heading),
        name,
      ).toEqual(SECTIONS);
      for (const section of found) expect(section.body, `${name}: ${section.heading}`).not.toBe('');
    }
  });

  it('every code path and link a record or the index names is still there', () => {
    for (const name of [INDEX, ...records()]) {
      const text = read(name);
      for (const [, path] of text.matchAll(REPO_PATH)) expect(existsSync(join(ROOT, path ?? '')), `${name} names ${path}`).toBe(true);
      for (const [, target] of text.matchAll(RELATIVE_LINK)) expect(existsSync(join(ADR, target ?? '')), `${name} links ${target}`).toBe(true);
    }
  });

  it('the index links every record by its title, and nothing else in docs/adr', () => {
    const index = read(INDEX);
    const linked = [...index.matchAll(/\[([^\]]+)\]\(((?!\.\.)[^)#\s]+\.md)\)/g)].map(([, text, target]): [string, string] => [target ?? '', text ?? '']);
    const expected = records().map((name): [string, string] => [name, title(read(name))?.[1] ?? '']);
    expect(new Map(linked)).toEqual(new Map(expected));
  });

  it('the README links docs/adr', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(/\]\(docs\/adr\/(?:README\.md)?\)/);
  });
});
