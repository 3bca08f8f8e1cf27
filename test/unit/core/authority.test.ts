/**
 * core/authority.ts: who a caller is from the credential and the surface, and what it may call.
 * The person's token is the person's on every surface but MCP; an assistant token is that assistant's
 * everywhere (no surface raises it); nothing else is anyone — generated near-misses of both tokens
 * included. The token files are read fresh and refused whole when they are anything but themselves.
 */
import { readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callerOf, refusal } from '../../../src-main/core/authority.js';
import {
  assistantOf,
  assistantTokensPath,
  issueAssistantToken,
  newAssistantToken,
  withdrawAssistant,
  withdrawAssistantToken,
} from '../../../src-main/core/credentials/assistant-tokens.js';
import { ensureToken, rotateToken } from '../../../src-main/core/credentials/person-token.js';
import { AUTHORITY, OPERATIONS } from '../../../src-main/shared/contract.js';
import { SURFACES } from '../../../src-main/shared/runs.js';
import { tempDir } from '../../support/temp.js';

const PERSON = { kind: 'person' } as const;
const bearer = (token: string | null) => ({ kind: 'bearer', token }) as const;

/** A home with the person's token and an assistant token issued to codex. */
function home(): { home: string; person: string; codex: string } {
  const dir = join(tempDir(), 'home');
  const person = ensureToken(dir);
  const codex = newAssistantToken();
  issueAssistantToken(dir, 'codex', codex);
  return { home: dir, person, codex };
}

describe('who a caller is', () => {
  it("is the person with the person's token on every surface but MCP, where it is the stdio bridge", () => {
    const h = home();
    for (const surface of SURFACES) {
      expect(callerOf(h.home, bearer(h.person), surface)).toEqual(surface === 'mcp' ? { kind: 'assistant', name: 'mcp' } : PERSON);
    }
  });

  it('is the assistant its token was issued to on every surface: no label raises it', () => {
    const h = home();
    for (const surface of SURFACES) expect(callerOf(h.home, bearer(h.codex), surface)).toEqual({ kind: 'assistant', name: 'codex' });
  });

  it("is the person in the app's window, and the stdio bridge answering on its own is an assistant", () => {
    const h = home();
    expect(callerOf(h.home, { kind: 'window' }, 'ui')).toEqual(PERSON);
    expect(callerOf(h.home, { kind: 'bridge' }, 'mcp')).toEqual({ kind: 'assistant', name: 'mcp' });
  });

  it('is nobody without a token, with a withdrawn one, or with the person’s token after a rotation', () => {
    const h = home();
    expect(callerOf(h.home, bearer(null), 'http')).toBeNull();
    withdrawAssistantToken(h.home, h.codex);
    expect(callerOf(h.home, bearer(h.codex), 'http')).toBeNull();
    rotateToken(h.home);
    expect(callerOf(h.home, bearer(h.person), 'http')).toBeNull();
  });

  it('is nobody for any near miss of either token, or any other string', () => {
    const h = home();
    const near = (token: string) =>
      fc.oneof(
        fc.tuple(fc.string({ minLength: 1, maxLength: 3 }), fc.boolean()).map(([extra, front]) => (front ? extra + token : token + extra)),
        fc.nat(token.length - 1).map((at) => token.slice(0, at) + token.slice(at + 1)),
        fc.nat(token.length - 1).map((at) => token.slice(0, at) + (token[at] === 'a' ? 'A' : 'a') + token.slice(at + 1)),
        fc.constantFrom(token.toUpperCase(), ` ${token}`, `Bearer ${token}`, `${h.person}${h.codex}`, `${h.codex},${h.person}`, `sta_${h.person}`),
      );
    fc.assert(
      fc.property(fc.oneof(near(h.person), near(h.codex), fc.string({ maxLength: 80 })), fc.constantFrom(...SURFACES), (token, surface) => {
        fc.pre(token !== h.person && token !== h.codex);
        expect(callerOf(h.home, bearer(token), surface)).toBeNull();
      }),
      { numRuns: 500 },
    );
  });
});

describe('what a caller may call', () => {
  it("refuses every person operation to an assistant (E814) and nothing to the person; an assistant's operations to nobody", () => {
    const assistant = { kind: 'assistant', name: 'codex' } as const;
    for (const operation of OPERATIONS) {
      expect(refusal(PERSON, operation)).toBeNull();
      const refused = refusal(assistant, operation);
      if (AUTHORITY[operation] === 'assistant') expect(refused).toBeNull();
      else expect(refused).toMatchObject({ code: 'E814', details: { operation, assistant: 'codex' } });
    }
    expect(refusal(assistant, 'events')?.code).toBe('E814');
  });
});

describe("assistants' tokens on disk", () => {
  it('keeps digests only, in a private file; withdrawing a client withdraws all its tokens and no other', () => {
    const h = home();
    const second = newAssistantToken();
    issueAssistantToken(h.home, 'codex', second);
    const cursor = newAssistantToken();
    issueAssistantToken(h.home, 'cursor', cursor);
    const file = assistantTokensPath(h.home);
    const text = readFileSync(file, 'utf8');
    for (const token of [h.codex, second, cursor]) expect(text).not.toContain(token.slice(4));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(withdrawAssistant(h.home, 'codex', second)).toBe(1);
    expect([assistantOf(h.home, h.codex), assistantOf(h.home, second), assistantOf(h.home, cursor)]).toEqual([null, 'codex', 'cursor']);
    expect(withdrawAssistant(h.home, 'codex')).toBe(1);
    expect([assistantOf(h.home, second), assistantOf(h.home, cursor)]).toEqual([null, 'cursor']);
  });

  it('honours no token from a file that is a symlink, not JSON, or holds one entry of another shape', () => {
    const h = home();
    const file = assistantTokensPath(h.home);
    const good = readFileSync(file, 'utf8');
    const issued = (JSON.parse(good) as { assistants: unknown[] }).assistants;
    for (const plant of [
      '{"assistants": [',
      JSON.stringify({ assistants: [...issued, { name: 'Bad Name', digest: 'x', issued_at: '' }] }),
      JSON.stringify([JSON.parse(good)]),
    ]) {
      writeFileSync(file, plant);
      expect(assistantOf(h.home, h.codex)).toBeNull();
    }
    // A symlink in place of the file, to a file that would issue the token, honours nothing.
    const elsewhere = join(tempDir(), 'planted.json');
    writeFileSync(elsewhere, good);
    rmSync(file);
    symlinkSync(elsewhere, file);
    expect(assistantOf(h.home, h.codex)).toBeNull();
    // The same content as the file itself is honoured: the refusals above were about the file alone.
    rmSync(file);
    writeFileSync(file, good);
    expect(assistantOf(h.home, h.codex)).toBe('codex');
  });
});
