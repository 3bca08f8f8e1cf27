import { describe, expect, it } from 'vitest';
import { SHUTDOWN_SIGNALS, onShutdownSignal, shutdownSignal } from '../../../src-main/server/shutdown-signals.js';

describe('shutdown signals', () => {
  it('are SIGINT, SIGTERM and SIGHUP (a closed terminal)', () => {
    expect([...SHUTDOWN_SIGNALS].sort()).toEqual(['SIGHUP', 'SIGINT', 'SIGTERM']);
  });

  it.each(SHUTDOWN_SIGNALS)('%s stops the owner once; later signals are swallowed until released', (signal) => {
    const before = process.listenerCount(signal);
    const heard: NodeJS.Signals[] = [];
    const release = onShutdownSignal((s) => heard.push(s));
    expect(process.listenerCount(signal)).toBe(before + 1);
    process.emit(signal, signal);
    process.emit('SIGTERM', 'SIGTERM');
    expect(heard).toEqual([signal]);
    release();
    for (const each of SHUTDOWN_SIGNALS) expect(process.listenerCount(each)).toBe(before);
  });

  it('after SIGHUP, a write error on the gone terminal cannot crash the shutdown', () => {
    const { signalled, release } = shutdownSignal();
    process.emit('SIGHUP', 'SIGHUP');
    const guards = process.stderr.listenerCount('error');
    expect(guards).toBeGreaterThan(0);
    process.emit('SIGHUP', 'SIGHUP');
    expect(process.stderr.listenerCount('error')).toBe(guards);
    expect(() => process.stderr.emit('error', Object.assign(new Error('write EIO'), { code: 'EIO' }))).not.toThrow();
    release();
    return expect(signalled).resolves.toBe('SIGHUP');
  });
});
