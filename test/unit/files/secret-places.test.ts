import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secretHomePaths, secretReach, type KnownPlaces } from '../../../src-main/core/files/secret-places.js';

const linux: KnownPlaces = { platform: 'linux' };
const machine: KnownPlaces = { platform: 'linux', userHome: '/data/alice', skilltrayHome: '/srv/skt', runtimeDir: '/run/user/1000' };

/** `path` spelled another way: runs of `/`, `.` segments, a detour through `..`, a trailing `/` (never above the start). */
function respelled(path: string): fc.Arbitrary<string> {
  const [lead, ...segments] = path.startsWith('~') ? ['~', ...path.slice(2).split('/')] : ['', ...path.slice(1).split('/')];
  const slash = fc.constantFrom('/', '//', '///', '/./', '/././');
  const detour = fc.constantFrom('', 'x/../', 'a/b/../../', './');
  return fc
    .tuple(fc.array(fc.tuple(slash, detour), { minLength: segments.length, maxLength: segments.length }), fc.constantFrom('', '/', '//', '/.'))
    .map(([joins, tail]) => lead + segments.map((segment, i) => `${joins[i]?.[0] ?? '/'}${joins[i]?.[1] ?? ''}${segment}`).join('') + tail);
}

describe('secretReach: one answer for every place no run may read', () => {
  it.each([
    ['~/.ssh', 'is', '~/.ssh'],
    ['~/.ssh/id_rsa', 'inside', '~/.ssh'],
    ['~/.aws/credentials', 'inside', '~/.aws'],
    ['~/.config/gh/hosts.yml', 'inside', '~/.config/gh'],
    ['~/.local/share/skilltray/token', 'inside', "Skilltray's home (~/.local/share/skilltray)"],
    ['~', 'holds', 'your home folder'],
    ['~/.config', 'holds', '~/.config/gcloud'],
    ['~/.local/share', 'holds', '~/.local/share/keyrings'],
    ['~/snap', 'holds', '~/snap/firefox'],
    ['/home/bob/.ssh/id_ed25519', 'inside', '~/.ssh'],
    ['/root/.aws', 'is', '~/.aws'],
    ['/home/bob/snap/brave/common', 'inside', '~/snap/brave'],
    ['/home/bob', 'holds', 'a home folder'],
    ['/home', 'holds', 'the home folders'],
    ['/mnt/alias-of-home/.netrc', 'is', '~/.netrc'],
  ])('%s %s %s (known only as written)', (path, relation, place) => {
    expect(secretReach(path, linux)).toMatchObject({ relation, place });
  });

  it('names the browsers docs/runner.md names: the Brave and Opera snaps, the Brave and Edge flatpaks', () => {
    for (const rel of ['snap/brave', 'snap/opera', '.var/app/com.brave.Browser', '.var/app/com.microsoft.Edge']) {
      expect(secretHomePaths('linux')).toContain(rel);
      expect(secretReach(`~/${rel}/Default/Cookies`, linux)).toMatchObject({ relation: 'inside', place: `~/${rel}` });
    }
  });

  it("knows this machine's places when told: Skilltray's home, the person's home, the runtime folder, and what holds them", () => {
    expect(secretReach('/srv/skt/token', machine)).toMatchObject({ relation: 'inside', skilltray: true });
    expect(secretReach('/srv/skt', machine)).toMatchObject({ relation: 'is', skilltray: true });
    expect(secretReach('/srv', machine)).toMatchObject({ relation: 'holds', skilltray: true });
    expect(secretReach('/data/alice/snap/firefox', machine)).toMatchObject({ relation: 'is', place: '~/snap/firefox' });
    expect(secretReach('/data/alice', machine)).toMatchObject({ relation: 'holds', place: 'your home folder' });
    expect(secretReach('/data', machine)).toMatchObject({ relation: 'holds', place: 'your home folder' });
    expect(secretReach('/run/user/1000/keyring/control', machine)).toMatchObject({ relation: 'inside' });
    // Unknown, the same paths are nobody's secret.
    expect(secretReach('/srv/skt/token', linux)).toBeNull();
    expect(secretReach('/data/alice/snap/firefox', linux)).toBeNull();
  });

  it('compares without case where the filesystem does (macOS)', () => {
    expect(secretReach('~/.SSH/id_rsa', { platform: 'darwin' })).toMatchObject({ relation: 'inside' });
    expect(secretReach('/Users/bob/Library/keychains/login.keychain-db', { platform: 'darwin' })).toMatchObject({
      relation: 'inside',
      place: '~/Library/Keychains',
    });
    expect(secretReach('~/.SSH/id_rsa', linux)).toBeNull();
  });

  it('lets ordinary files and folders through', () => {
    for (const path of [
      '~/.gitconfig',
      '~/.config/git/ignore',
      '~/.cargo/bin',
      '~/projects/app',
      '/usr/share/dict/words',
      '/etc/hosts',
      '/opt/tool',
      '/home/bob/work/app',
    ]) {
      expect(secretReach(path, machine), path).toBeNull();
    }
  });

  it('gives the same answer for every spelling of a path (property)', () => {
    const paths = [
      '~/.ssh/id_rsa',
      '~/.config/gh',
      '/home/bob/.aws/credentials',
      '/srv/skt/state.db',
      '~/.config',
      '/data/alice',
      '~/.gitconfig',
      '/usr/lib/x',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...paths).chain((path) => fc.tuple(fc.constant(path), respelled(path))),
        ([path, spelling]) => {
          expect(secretReach(spelling, machine)).toEqual(secretReach(path, machine));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('finds every listed secret wherever it sits in a home, and whatever lies inside it (property)', () => {
    const homes = fc.constantFrom('~', '/home/bob', '/root', '/data/alice', '/var/home/eve');
    const tail = fc.array(fc.stringMatching(/^[a-zA-Z0-9_-]{1,8}$/), { maxLength: 3 });
    fc.assert(
      fc.property(homes, fc.constantFrom(...secretHomePaths('linux')), tail, (home, rel, rest) => {
        const found = secretReach([home, rel, ...rest].join('/'), machine);
        expect(found?.relation).toBe(rest.length === 0 ? 'is' : 'inside');
      }),
      { numRuns: 500 },
    );
  });
});
