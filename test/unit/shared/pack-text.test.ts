import { describe, expect, it } from 'vitest';
import type { ScanReport } from '../../../src-main/shared/packs.js';
import { findingCounts, installBlocker, signatureText, switchesText } from '../../../src-main/shared/pack-text.js';

const report = (over: Partial<ScanReport> = {}): ScanReport => ({
  pack: 'kit',
  origin: {
    kind: 'folder',
    source: '/src/kit',
    ref: null,
    path: null,
    commit: null,
    signature: { state: 'unsigned', format: null, signer: null, detail: null },
  },
  skills: [],
  findings: [],
  files: 1,
  bytes: 10,
  worst: null,
  extracted: true,
  digest: 'd'.repeat(64),
  ...over,
});

const finding = (severity: 'high' | 'medium' | 'low') => ({
  code: 'S305' as const,
  kind: 'hidden_file' as const,
  severity,
  file: 'a',
  line: null,
  message: 'm',
  excerpt: null,
});

describe('how packs read', () => {
  it('says who signed, or that nobody trusted did', () => {
    expect(signatureText({ state: 'verified', format: 'ssh', signer: 'alice@example.com', detail: null })).toBe('signed by alice@example.com (ssh)');
    expect(signatureText({ state: 'untrusted', format: 'ssh', signer: 'SHA256:abc', detail: null })).toBe('signed by an untrusted key (SHA256:abc)');
    expect(signatureText({ state: 'untrusted', format: 'gpg', signer: null, detail: null })).toBe('signed by an untrusted key');
    expect(signatureText({ state: 'unsigned', format: null, signer: null, detail: null })).toBe('unsigned');
  });

  it('names what stops an install: an archive never extracted, then a name clash; nothing else does', () => {
    expect(installBlocker(report({ extracted: false, worst: 'high' }))).toContain('unsafe to extract');
    const clash = {
      name: 'git',
      originalName: null,
      dir: 'git',
      description: '',
      version: null,
      hash: 'h',
      tools: [],
      scripts: [],
      errors: [],
      clash: { path: '/b/git', root: 'bundled' as const },
    };
    expect(installBlocker(report({ skills: [clash] }))).toBe("skill 'git' has the name of a bundled skill: install it under another name (--as)");
    expect(installBlocker(report({ worst: 'high', findings: [finding('high')] }))).toBeNull();
  });

  it('counts findings worst first, and says switches in words', () => {
    expect(findingCounts({ findings: [] })).toBe('no findings');
    expect(findingCounts({ findings: [finding('low'), finding('high'), finding('high')] })).toBe('2 high, 1 low');
    expect(switchesText([])).toBe('');
    expect(
      switchesText([
        { scope: 'all', enabled: false },
        { scope: 'Dev', enabled: true },
      ]),
    ).toBe('off everywhere, on in Dev');
  });
});
