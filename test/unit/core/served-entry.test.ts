/**
 * A served entry is checked before anything of it is fetched or written: the known hostile shapes
 * (`../`, absolute, NUL, an encoded slash, hidden, a backslash, case and Unicode twins, a file that
 * is also a folder, no resources, a lying name) are refused with E865, and for any generated entry,
 * whatever passes names only files that stay inside the folder they are written under.
 */
import { createHash } from 'node:crypto';
import { join, relative, resolve, sep } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkEntry, setDigest } from '../../../src-main/core/served/served-entry.js';
import { decodePath, skillFileUri } from '../../../src-main/shared/served-uri.js';

const digest = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** An entry of skill `name` listing SKILL.md and `others` (raw URIs after `skill://<name>/`). */
function entry(name: string, others: string[], overrides: Record<string, unknown> = {}) {
  const uri = `skill://${name}/SKILL.md`;
  return {
    uri,
    frontmatter: { name: name.split('/').at(-1), description: 'A skill. Use in tests.' },
    resources: [uri, ...others.map((rest) => `skill://${name}/${rest}`)].map((u) => ({ uri: u, digest: digest(u) })),
    ...overrides,
  };
}

const refusal = (raw: unknown) => {
  const checked = checkEntry('src', raw);
  if (checked.ok) throw new Error(`expected a refusal, got ${JSON.stringify(checked.entry.files.map((f) => f.path))}`);
  return checked.error.toJSON();
};

describe('a served entry', () => {
  it('is taken when it keeps the rules, its files sorted and its set digested', () => {
    const checked = checkEntry('src', entry('refunds', ['references/GUIDE.md', 'scripts/a%20b.sh']));
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.entry.name).toBe('refunds');
    expect(checked.entry.files.map((f) => f.path)).toEqual(['SKILL.md', 'references/GUIDE.md', 'scripts/a b.sh']);
    expect(checked.entry.digest).toBe(setDigest(checked.entry.files));
    // A nested skill path is a prefix of the server's; the name is its last segment.
    expect(checkEntry('src', entry('acme/billing/refunds', []))).toMatchObject({ ok: true, entry: { name: 'refunds' } });
  });

  it.each([
    ['a parent segment', ['../evil.txt']],
    ['a parent segment deeper', ['references/../../evil.txt']],
    ['an encoded parent', ['..%2F..%2Fevil.txt']],
    ['an encoded slash', ['references%2Fx.md']],
    ['an absolute path', ['/etc/passwd']],
    ['an encoded NUL', ['evil%00.md']],
    ['a control character', ['evil%0A.md']],
    ['a backslash', ['..%5C..%5Cevil.txt']],
    ['a hidden file', ['.env']],
    ['a hidden folder', ['.git/config']],
    ['an empty segment', ['references//x.md']],
    ['a dot segment', ['./x.md']],
    ['case twins', ['Guide.md', 'GUIDE.md']],
    ['Unicode twins', ['caf%C3%A9.md', 'cafe%CC%81.md']],
    ['a file that is a folder too', ['docs', 'docs/x.md']],
    ['bad percent-encoding', ['%E0%A4%A.md']],
  ])('refuses %s with E865', (_what, others) => {
    expect(refusal(entry('s', others))).toMatchObject({ code: 'E865', details: { uri: 'skill://s/SKILL.md' } });
  });

  it('refuses a file of another skill, another scheme, a missing SKILL.md and a skill with no resources', () => {
    const other = entry('s', []);
    other.resources.push({ uri: 'skill://t/x.md', digest: digest('x') });
    expect(refusal(other).code).toBe('E865');
    expect(refusal({ ...entry('s', []), uri: 'file:///etc/SKILL.md' }).code).toBe('E865');
    expect(refusal({ ...entry('s', []), uri: 'skill:///SKILL.md' }).code).toBe('E865');
    expect(refusal({ ...entry('s', ['x.md']), resources: [{ uri: 'skill://s/x.md', digest: digest('x') }] }).code).toBe('E865');
    const { resources: _none, ...bare } = entry('s', []);
    expect(refusal(bare)).toMatchObject({ code: 'E865', message: expect.stringContaining('cannot be pinned') });
  });

  it('refuses a name that is not a slug or not the frontmatter’s, and a digest that is not sha256 hex', () => {
    expect(refusal(entry('Bad_Name', [])).code).toBe('E865');
    expect(refusal({ ...entry('s', []), frontmatter: { name: 'other', description: 'x' } }).code).toBe('E865');
    expect(refusal({ ...entry('s', []), frontmatter: { name: 's' } }).code).toBe('E865');
    const weak = entry('s', []);
    (weak.resources[0] as { digest: string }).digest = 'md5:abc';
    expect(refusal(weak).code).toBe('E865');
  });

  it('refuses a file or folder name over 255 UTF-8 bytes and a path over 1024 bytes, and takes one of 255 bytes exactly', () => {
    // 'é' is two bytes in UTF-8: 128 of them are 128 characters but 256 bytes.
    const wide = encodeURIComponent('é'.repeat(128));
    expect(refusal(entry('s', [`${wide}.txt`])).details).toMatchObject({ why: expect.stringContaining('longer than 255 bytes') });
    expect(refusal(entry('s', [`${wide}/x.txt`])).code).toBe('E865');
    expect(refusal(entry('s', [`${'a'.repeat(300)}.txt`])).code).toBe('E865');
    expect(checkEntry('src', entry('s', [`${'a'.repeat(251)}.txt`])).ok).toBe(true);
    const deep = Array.from({ length: 5 }, () => 'b'.repeat(250)).join('/');
    expect(refusal(entry('s', [`${deep}/x.txt`])).details).toMatchObject({ why: expect.stringContaining('longer than 1024 bytes') });
  });

  it('refuses more than 512 files with E868', () => {
    const many = Array.from({ length: 512 }, (_, i) => `f${i}.md`);
    expect(refusal(entry('s', many))).toMatchObject({ code: 'E868' });
    expect(checkEntry('src', entry('s', many.slice(1))).ok).toBe(true);
  });

  it('takes no generated entry whose files, written under a folder, would leave it or hide', () => {
    const piece = fc.oneof(
      fc.constantFrom('..', '.', '', '%2e%2e', '%2E%2E%2F', '%2F', '%5C', '%00', '.hidden', '~', 'C:', '%C0%AE', 'a', 'SKILL.md', '..%2f', '/'),
      fc.string({ maxLength: 6 }),
    );
    const rest = fc.array(piece, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));
    fc.assert(
      fc.property(fc.array(rest, { maxLength: 4 }), (others) => {
        const checked = checkEntry('src', entry('s', others));
        if (!checked.ok) return;
        const base = resolve('/cache/skills/src.s');
        for (const file of checked.entry.files) {
          const target = join(base, ...file.path.split('/'));
          const rel = relative(base, target);
          expect(rel.startsWith('..') || rel === '' || rel.split(sep).some((s) => s.startsWith('.'))).toBe(false);
          expect(file.path).not.toMatch(/[\0\\]/);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('skill:// paths', () => {
  it('decode one segment at a time, so an encoded slash or dot-dot never makes a segment of its own', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 }), (segments) => {
        const uri = skillFileUri('s', segments.join('/'));
        const decoded = decodePath(uri.slice('skill://s/'.length));
        // What it encodes comes back as it was, or is refused as a whole.
        if (decoded.ok) expect(decoded.rel).toBe(segments.join('/'));
      }),
    );
    expect(decodePath('a%2F..%2F..%2Fb')).toMatchObject({ ok: false });
    expect(decodePath('a/b%20c.md')).toEqual({ ok: true, rel: 'a/b c.md' });
  });
});
