import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { emitGuarded, emitSafely } from '../../../src-main/core/events.js';
import { captureWarnings } from '../../support/warnings.js';

describe('emitSafely', () => {
  it('fires a once() listener on the first emit only, like emit does', () => {
    const emitter = new EventEmitter();
    const heard: string[] = [];
    emitter.once('change', (value: string) => heard.push(`once:${value}`));
    emitter.on('change', (value: string) => heard.push(`on:${value}`));
    emitSafely(emitter, 'change', 'a');
    emitSafely(emitter, 'change', 'b');
    expect(heard).toEqual(['once:a', 'on:a', 'on:b']);
    expect(emitter.listenerCount('change')).toBe(1);
  });

  it('calls listeners in order with the emitter as this, and keeps going past one that throws', () => {
    const emitter = new EventEmitter();
    const failures: [string, string][] = [];
    const heard: unknown[] = [];
    emitter.on('x', () => {
      throw new Error('broken listener');
    });
    emitter.once('x', function (this: unknown, value: number) {
      heard.push([this === emitter, value]);
    });
    emitGuarded(emitter, 'x', [1], (error, event) => failures.push([event, (error as Error).message]));
    emitGuarded(emitter, 'x', [2], (error, event) => failures.push([event, (error as Error).message]));
    expect(heard).toEqual([[true, 1]]);
    expect(failures).toEqual([
      ['x', 'broken listener'],
      ['x', 'broken listener'],
    ]);
  });

  it('reports a throwing listener as a process warning by default', () => {
    const emitter = new EventEmitter();
    emitter.once('y', () => {
      throw new Error('gone');
    });
    const warnings = captureWarnings();
    emitSafely(emitter, 'y');
    expect(warnings.messages).toEqual(["a 'y' listener failed: gone"]);
    expect(emitter.listenerCount('y')).toBe(0);
  });
});
