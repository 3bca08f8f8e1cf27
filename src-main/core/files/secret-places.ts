/**
 * The places no run may read, whoever declares them: the person's keys and credential stores,
 * browser profiles and keyrings, the session's runtime folder, and Skilltray's own home (its token,
 * state.db). One list and one predicate, on the lowest floor, so every part asks the same question:
 * the loader refuses a declaration that reaches one (E433, E434), the sandbox masks them
 * (process/sandbox/secret-paths.ts) and never binds one, and policy asks before an argument names one.
 */
/** Credential stores every platform keeps in the home directory. */
const COMMON = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.kube',
  '.docker',
  '.netrc',
  '.git-credentials',
  '.config/gh',
  '.password-store',
  '.npmrc',
  '.pypirc',
];

/** Browser profiles (cookies, saved passwords), their snap and flatpak homes, and keyrings on Linux. */
const LINUX = [
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.config/vivaldi',
  '.config/opera',
  'snap/firefox',
  'snap/chromium',
  'snap/brave',
  'snap/opera',
  'snap/vivaldi',
  '.var/app/org.mozilla.firefox',
  '.var/app/com.google.Chrome',
  '.var/app/org.chromium.Chromium',
  '.var/app/com.brave.Browser',
  '.var/app/com.microsoft.Edge',
  '.var/app/com.vivaldi.Vivaldi',
  '.var/app/com.opera.Opera',
  '.local/share/keyrings',
  '.local/share/kwalletd',
];

/** Browser profiles and keychains on macOS. */
const DARWIN = [
  'Library/Keychains',
  'Library/Cookies',
  'Library/Safari',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Application Support/BraveSoftware',
  'Library/Application Support/Microsoft Edge',
  'Library/Application Support/Chromium',
];

/** Where Skilltray's home is when SKILLTRAY_HOME does not say (env-paths' data folder), relative to the home folder. */
const DEFAULT_SKILLTRAY_HOME: Partial<Record<NodeJS.Platform, string>> = {
  linux: '.local/share/skilltray',
  darwin: 'Library/Application Support/skilltray',
  win32: 'AppData/Local/skilltray/Data',
};

/** Folders that hold every home folder, and the homes that stand alone (root's), as written on each platform. */
const HOME_PARENTS = ['/home', '/Users', '/var/home'];
const LONE_HOMES = ['/root', '/var/root'];

export interface SecretPlaces {
  /** The person's home directory (HOME). */
  userHome: string;
  /** Skilltray's home: its token, state.db and runtime data. */
  skilltrayHome: string;
  /** Where the session keeps its sockets (XDG_RUNTIME_DIR: keyring, agents, the D-Bus session bus); undefined when unset. */
  runtimeDir?: string | undefined;
  platform: NodeJS.Platform;
}

/** What is known of this machine: at check time only the platform (a declaration is judged as written), at run time every place. */
export type KnownPlaces = Pick<SecretPlaces, 'platform'> & Partial<Omit<SecretPlaces, 'platform'>>;

/** How a path meets a secret place. */
export interface SecretReach {
  /** `is` the place, lies `inside` it, or `holds` it (a folder with the place somewhere in it). */
  relation: 'is' | 'inside' | 'holds';
  /** The place as a person reads it: `~/.ssh`, `Skilltray's home (/x)`, `a home folder`. */
  place: string;
  /** True when the place is Skilltray's own home. */
  skilltray: boolean;
}

/** The secret paths relative to the home directory on `platform`, as written above. */
export function secretHomePaths(platform: NodeJS.Platform): string[] {
  return [...COMMON, ...(platform === 'darwin' ? DARWIN : platform === 'linux' ? LINUX : [])];
}

/** Whether names compare without case here (APFS and NTFS by default): `~/.SSH` is `~/.ssh` there. */
function foldsCase(platform: NodeJS.Platform): boolean {
  return platform === 'darwin' || platform === 'win32';
}

/** A path's segments, `.` dropped and `..` taken back (never above the start), in the platform's case. */
function segmentsOf(path: string, platform: NodeJS.Platform): string[] {
  const out: string[] = [];
  const text = foldsCase(platform) ? path.toLowerCase() : path;
  for (const segment of text.split(platform === 'win32' ? /[\\/]/ : '/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return out;
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}

/** How `path` meets the place `place` (both as segments), or null. */
function meet(path: readonly string[], place: readonly string[]): SecretReach['relation'] | null {
  if (startsWith(path, place)) return path.length === place.length ? 'is' : 'inside';
  return startsWith(place, path) ? 'holds' : null;
}

/** The home-relative secrets of `platform` with Skilltray's default home, each with how it is named. */
function homeSecrets(platform: NodeJS.Platform): { rel: string; skilltray: boolean }[] {
  const fallback = DEFAULT_SKILLTRAY_HOME[platform];
  return [...secretHomePaths(platform).map((rel) => ({ rel, skilltray: false })), ...(fallback === undefined ? [] : [{ rel: fallback, skilltray: true }])];
}

/** How the path `rel` inside a home folder (`home`: how that folder is named) meets a secret kept there. */
function inHome(rel: readonly string[], home: string, platform: NodeJS.Platform): SecretReach | null {
  if (rel.length === 0) return { relation: 'holds', place: home, skilltray: false };
  let holds: SecretReach | null = null;
  for (const secret of homeSecrets(platform)) {
    const relation = meet(rel, segmentsOf(secret.rel, platform));
    const place = secret.skilltray ? `Skilltray's home (~/${secret.rel})` : `~/${secret.rel}`;
    if (relation === 'is' || relation === 'inside') return { relation, place, skilltray: secret.skilltray };
    if (relation === 'holds') holds ??= { relation, place, skilltray: secret.skilltray };
  }
  return holds;
}

/** Where a conventional home folder (`/home/<name>`, `/root`, `/Users/<name>`) starts in `path`, as its length in segments; 0 when it is in none. */
function conventionalHome(path: readonly string[], platform: NodeJS.Platform): number {
  for (const lone of LONE_HOMES) if (startsWith(path, segmentsOf(lone, platform))) return segmentsOf(lone, platform).length;
  for (const parent of HOME_PARENTS) {
    const length = segmentsOf(parent, platform).length;
    if (startsWith(path, segmentsOf(parent, platform)) && path.length > length) return length + 1;
  }
  return 0;
}

/** A hidden secret (`.ssh`, `.config/gh`) met at any depth: in a home Skilltray does not know of, or an alias of one. */
function hiddenAnywhere(path: readonly string[], platform: NodeJS.Platform): SecretReach | null {
  for (const secret of homeSecrets(platform)) {
    if (!secret.rel.startsWith('.')) continue;
    const place = segmentsOf(secret.rel, platform);
    for (let at = 0; at + place.length <= path.length; at++) {
      if (place.every((segment, i) => path[at + i] === segment)) {
        return { relation: at + place.length === path.length ? 'is' : 'inside', place: `~/${secret.rel}`, skilltray: secret.skilltray };
      }
    }
  }
  return null;
}

/**
 * How `path` meets a place no run may read, or null when it meets none. `path` is `~`, `~/…` (in
 * the person's home) or absolute, in any spelling (`//`, `.`, `..`, a trailing `/`); a caller that
 * holds a real path (symlinks followed) passes that. Meeting means: it is such a place (`~/.ssh`,
 * Skilltray's home), lies inside one (`~/.ssh/id_rsa`), or is a folder that holds one (`~`,
 * `~/.config`, `/home`, a folder around Skilltray's home). Besides the places `places` names, it
 * knows every conventional home folder (`/home/<name>`, `/root`, `/Users/<name>`) and a hidden secret
 * (`.ssh`, `.aws`…) at any depth, so another person's keys, or a home under another name, count too.
 */
export function secretReach(path: string, places: KnownPlaces): SecretReach | null {
  const { platform } = places;
  if (path === '~' || path.startsWith('~/')) return inHome(segmentsOf(path.slice(1), platform), 'your home folder', platform);
  const segments = segmentsOf(path, platform);
  let holds: SecretReach | null = null;
  const named: [string | undefined, (at: string) => string, boolean][] = [
    [places.skilltrayHome, (at) => `Skilltray's home (${at})`, true],
    [places.runtimeDir === '' ? undefined : places.runtimeDir, (at) => `the session's runtime folder (${at})`, false],
  ];
  for (const [at, name, skilltray] of named) {
    if (at === undefined) continue;
    const relation = meet(segments, segmentsOf(at, platform));
    if (relation === 'is' || relation === 'inside') return { relation, place: name(at), skilltray };
    if (relation === 'holds') holds ??= { relation, place: name(at), skilltray };
  }
  if (places.userHome !== undefined) {
    const home = segmentsOf(places.userHome, platform);
    if (startsWith(segments, home)) {
      const found = inHome(segments.slice(home.length), 'your home folder', platform);
      if (found !== null && found.relation !== 'holds') return found;
      holds ??= found;
    } else if (startsWith(home, segments)) holds ??= { relation: 'holds', place: 'your home folder', skilltray: false };
  }
  const homeLength = conventionalHome(segments, platform);
  if (homeLength > 0) {
    const found = inHome(segments.slice(homeLength), 'a home folder', platform);
    if (found !== null && found.relation !== 'holds') return found;
    holds ??= found;
  } else if (segments.length === 0 || HOME_PARENTS.some((parent) => meet(segments, segmentsOf(parent, platform)) === 'is')) {
    holds ??= { relation: 'holds', place: 'the home folders', skilltray: false };
  }
  return hiddenAnywhere(segments, platform) ?? holds;
}

/** `reach` as the end of a sentence: "lies in ~/.ssh", "holds Skilltray's home (/x)". */
export function reachText(reach: SecretReach): string {
  return reach.relation === 'is' ? `is ${reach.place}` : reach.relation === 'inside' ? `lies in ${reach.place}` : `holds ${reach.place}`;
}
