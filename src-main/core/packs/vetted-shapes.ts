/**
 * The vetted shapes of programs that can run code through some of their options, or that write
 * files: each is an allow-list of the options the scan knows to run nothing, plus what their
 * operands may be. Anything else (an option not listed, a caller's value where code goes, a write
 * into a place something later runs) is why the tool is flagged. git's shapes are in git-shapes.ts.
 */
import { gitWhy } from './git-shapes.js';
import { awkProgramWhy, sedScriptWhy } from './script-shapes.js';
import { readOptions, type Arg, type OptionSpec, type ReadOptions } from './tool-argv.js';

const spec = (flags: string, values = '', more: Partial<OptionSpec> = {}): OptionSpec => ({
  flags: flags.split(' ').filter(Boolean),
  values: values.split(' ').filter(Boolean),
  ...more,
});

/** Paths something runs later: git hooks and config, shell startup files, autostart and service folders, bin folders, build files. */
const EXECUTABLE_PLACE =
  /(?:^|\/)\.git\/(?:hooks|config)\b|(?:^|\/)\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|zprofile|zlogin|kshrc|cshrc|tcshrc|login|xprofile|xinitrc|xsessionrc|envrc|npmrc|yarnrc|gitconfig|vimrc|exrc|gitattributes)$|(?:^|\/)\.(?:config\/(?:autostart|systemd|fish|environment\.d|git)|local\/bin|local\/share\/applications|ssh|cargo|husky|vscode|idea|devcontainer|github\/workflows|gnupg)(?:\/|$)|(?:^|\/)(?:bin|sbin|node_modules\/\.bin|LaunchAgents|LaunchDaemons|cron\.d|init\.d|profile\.d|rc\.d)(?:\/|$)|^\/(?:etc|usr|opt|var\/spool)(?:\/|$)|(?:^|\/)(?:Makefile|GNUmakefile|makefile|package\.json|setup\.py|conftest\.py|sitecustomize\.py|usercustomize\.py|\.pre-commit-config\.yaml|Dockerfile|justfile)$/;

/** What reads stdin as a file: what a tool is handed there is the content it writes. */
const STDIN = /^(?:-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/** Why writing to `target` plants something that runs later, or null. */
function placeWhy(target: Arg): string | null {
  const path = target.text.replace(/^(?:\.\/)+/, '').replace(/^~\//, '/home/~/');
  return !target.slot && EXECUTABLE_PLACE.test(path) ? `it writes ${target.text}, a place something runs later` : null;
}

/** The first write into a place something runs later among `targets`, or a stdin source, or null. */
function writesWhy(sources: readonly Arg[], targets: readonly Arg[]): string | null {
  const stdin = sources.find((a) => !a.slot && STDIN.test(a.text));
  if (stdin !== undefined) return `it writes what it is handed on stdin (${stdin.text})`;
  for (const target of targets) {
    const why = placeWhy(target);
    if (why !== null) return why;
  }
  return null;
}

/** readOptions, then `then` on what it read; a reason string passes through. */
const within = (args: readonly Arg[], options: OptionSpec, then: (read: ReadOptions) => string | null = () => null): string | null => {
  const read = readOptions(args, options);
  return typeof read === 'string' ? read : then(read);
};

const valuesOf = (read: ReadOptions, ...names: string[]): Arg[] =>
  read.seen.filter((o) => names.includes(o.name) && o.value !== null).map((o) => o.value as Arg);

const FIND = spec(
  '-L -H -P -empty -readable -writable -executable -print -print0 -ls -prune -quit -true -false -depth -xdev -mount -follow -noleaf -daystart -nouser -nogroup -not -a -and -o -or',
  '-name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -type -xtype -maxdepth -mindepth -size -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer -user -group -uid -gid -perm -links -inum -samefile -used -printf -lname -ilname',
  { longSingleDash: true },
);

const TAR = spec(
  '-c -x -t -v -z -j -J -a -k -O -p -h -o -m --create --extract --get --list --verbose --gzip --gunzip --bzip2 --xz --zstd --lzma --auto-compress --to-stdout --keep-old-files --skip-old-files --keep-newer-files --no-same-owner --no-same-permissions --numeric-owner --force-local --wildcards --no-wildcards --anchored --no-recursion --one-file-system --totals --dereference --overwrite --touch --preserve-permissions --same-owner --ignore-zeros --sparse --show-transformed-names --null',
  '-f -C -T -X --file --directory --exclude --exclude-from --files-from --strip-components --transform --xform --owner --group --mode --mtime --format -H --exclude-vcs --blocking-factor -b',
);

const SED = spec(
  '-n --quiet --silent -E -r --regexp-extended -s --separate -z --null-data -u --unbuffered --posix --debug --sandbox',
  '-e --expression -l --line-length',
  {
    literalOnly: ['-e', '--expression'],
  },
);

const AWK = spec('--posix --traditional --sandbox -b --characters-as-bytes -c -P --lint', '-F -v --field-separator --assign -e --source', {
  literalOnly: ['-e', '--source'],
});

/** ssh -o keys that only tune a connection. */
const SSH_OPTIONS =
  /^(?:connecttimeout|batchmode|stricthostkeychecking|serveraliveinterval|serveralivecountmax|connectionattempts|port|user|identitiesonly|loglevel|passwordauthentication|pubkeyauthentication|userknownhostsfile|hashknownhosts|compression|addressfamily|requesttty|identityfile|checkhostip|numberofpasswordprompts|kbdinteractiveauthentication)=/i;

const SSH = spec('-4 -6 -C -n -N -q -T -v -vv -vvv -x', '-l -p -i -o');
const SCP = spec('-4 -6 -C -p -q -r -v -B -3 -O -s -T', '-P -i -o -l');
const SFTP = spec('-4 -6 -C -p -q -r -v -N', '-P -i -o -l -B -R');

const sshWhy = (read: ReadOptions): string | null => {
  const bad = valuesOf(read, '-o').find((o) => o.slot || !SSH_OPTIONS.test(o.text));
  return bad === undefined ? null : `-o ${bad.text} is no vetted ssh option (ProxyCommand, LocalCommand, KnownHostsCommand and the like run programs)`;
};

const RSYNC = spec(
  '-a -r -v -z -n -h -P -c -l -L -p -t -o -g -D -u -i -q -x -H -A -X -S --archive --recursive --verbose --compress --dry-run --human-readable --progress --partial --delete --delete-after --delete-before --delete-excluded --checksum --links --copy-links --perms --times --owner --group --devices --specials --update --itemize-changes --stats --list-only --size-only --ignore-existing --existing --quiet --one-file-system --hard-links --acls --xattrs --sparse --inplace --append --append-verify --whole-file --no-motd --prune-empty-dirs --mkpath --safe-links --copy-unsafe-links --no-perms --no-owner --no-group --numeric-ids --ignore-times --omit-dir-times',
  '--exclude --include --exclude-from --include-from --max-size --min-size --bwlimit --timeout --contimeout --chmod --chown --backup-dir --suffix --modify-window --max-delete --port',
);

// zip reads its multi-letter options (-TT, -ll, -FS) before single letters: only whole words are vetted.
const ZIP = spec('-r -q -j -X -y -u -f -D -v -T -l -ll -m -0 -1 -2 -3 -4 -5 -6 -7 -8 -9 -x -i -S -o -g -FS -rq -qr --symlinks', '-P -b -n -Z -t -tt', {
  longSingleDash: true,
});

const NC = spec('-z -v -vv -u -n -4 -6 -N -d', '-w -q -i -p -s');

const SORT = spec(
  '-b -d -f -g -i -M -h -n -R -r -V -c -C -m -s -u -z --ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort --ignore-nonprinting --month-sort --human-numeric-sort --numeric-sort --random-sort --reverse --version-sort --check --merge --stable --unique --zero-terminated --debug',
  '-k -t -o -S -T --key --field-separator --output --buffer-size --temporary-directory --parallel --sort --batch-size --files0-from',
);

const RG = spec(
  '-i -S -s -w -x -v -n -N -l -c -F -U -P -o -L -u -uu -uuu -z -a -H -I -0 --json --hidden --no-ignore --files --no-heading --heading --column --vimgrep --only-matching --follow --count --count-matches --files-with-matches --files-without-match --fixed-strings --ignore-case --smart-case --case-sensitive --word-regexp --line-regexp --invert-match --line-number --no-line-number --multiline --pcre2 --trim --search-zip --text --no-messages --null --stats --no-config --no-ignore-vcs --one-file-system',
  '-C -A -B -e -g -t -T -m -d -M -r -E -j --context --after-context --before-context --regexp --glob --iglob --type --type-not --max-count --max-depth --max-columns --max-filesize --sort --sortr --color --replace --encoding --threads --type-add',
);

const PANDOC = spec(
  '-s --standalone --toc --table-of-contents --number-sections --no-highlight --wrap --ascii --strip-comments --sandbox -N',
  '-f -t -r -w -o -M -V --from --to --read --write --output --metadata --variable --wrap --columns --toc-depth --shift-heading-level-by --dpi --eol --tab-stop --highlight-style --top-level-division --id-prefix --title-prefix',
  {
    literalOnly: ['-f', '-t', '-r', '-w', '--from', '--to', '--read', '--write'],
  },
);

const COPY = spec(
  '-a -r -R -f -i -n -v -p -l -s -L -P -H -u -T -b -x --archive --recursive --force --interactive --no-clobber --verbose --link --symbolic --relative --logical --physical --dereference --no-dereference --update --no-target-directory --backup --parents --remove-destination --strip-trailing-slashes --one-file-system --attributes-only --debug',
  '-t -S --target-directory --suffix --preserve --no-preserve --reflink --sparse --backup --update',
);

/** Whether a chmod mode gives anyone execute (`+x`, `a+rwx`, `=x`, `755`). */
const GIVES_EXECUTE = /^(?:[ugoa]*[+=][rwxXst]*[xXs][rwxXst]*(?:,.*)?|.*,[ugoa]*[+=][rwxXst]*[xXs].*|[0-7]*[1357][0-7]{0,2})$/;

/** Each shaped program's judgement: why its arguments match no vetted shape, or null. */
export const SHAPES: Record<string, (args: readonly Arg[]) => string | null> = {
  git: gitWhy,
  find: (args) => within(args, FIND),
  tar: (args) => {
    // `tar xzf a.tgz`: the old style, a first word of letters with no dash.
    const first = args[0];
    const lead = first !== undefined && !first.slot && /^[A-Za-z]+$/.test(first.text) ? [{ ...first, text: `-${first.text}` }, ...args.slice(1)] : args;
    return within(lead, TAR);
  },
  sed: (args) => {
    const rest = args.filter((a) => a.slot || !/^(?:-i\S*|--in-place(?:=.*)?)$/.test(a.text));
    return within(rest, SED, (read) => {
      if (read.seen.some((o) => o.name === '--sandbox')) return null;
      const scripts = valuesOf(read, '-e', '--expression');
      const script = scripts.length > 0 ? scripts : read.operands.slice(0, 1);
      if (script.length === 0) return 'it names no script';
      const fromCaller = script.find((s) => s.slot);
      if (fromCaller !== undefined) return `its script ${fromCaller.text} comes from the caller`;
      return script.map((s) => sedScriptWhy(s.text)).find((why) => why !== null) ?? null;
    });
  },
  awk: (args) =>
    within(args, AWK, (read) => {
      if (read.seen.some((o) => o.name === '--sandbox')) return null;
      const programs = valuesOf(read, '-e', '--source');
      const program = programs.length > 0 ? programs : read.operands.slice(0, 1);
      if (program.length === 0) return 'it names no program';
      const fromCaller = program.find((p) => p.slot);
      if (fromCaller !== undefined) return `its program ${fromCaller.text} comes from the caller`;
      return program.map((p) => awkProgramWhy(p.text)).find((why) => why !== null) ?? null;
    }),
  ssh: (args) =>
    within(args, SSH, (read) => {
      const command = read.operands.slice(1).find((o) => o.slot);
      return sshWhy(read) ?? (command === undefined ? null : `the remote command takes ${command.text} from the caller`);
    }),
  scp: (args) => within(args, SCP, sshWhy),
  sftp: (args) => within(args, SFTP, sshWhy),
  rsync: (args) => within(args, RSYNC),
  zip: (args) => within(args, ZIP),
  nc: (args) => within(args, NC),
  less: (args) =>
    within(args, spec('-N -S -R -F -X -r -n -i -I'), (read) => {
      const bad = read.operands.find((o) => o.slot || o.text.startsWith('+'));
      return bad === undefined ? null : `${bad.text} can begin with +, which less and more run as their own command (+!cmd)`;
    }),
  sort: (args) => within(args, SORT, (read) => writesWhy([], valuesOf(read, '-o', '--output'))),
  rg: (args) => within(args, RG),
  pandoc: (args) =>
    within(args, PANDOC, (read) => {
      const lua = valuesOf(read, '-f', '-t', '-r', '-w', '--from', '--to', '--read', '--write').find((v) => /\.lua$/i.test(v.text));
      return lua === undefined ? writesWhy([], valuesOf(read, '-o', '--output')) : `${lua.text} is a Lua reader or writer: code`;
    }),
  man: (args) => within(args, spec('-k -f -w -a --apropos --whatis --where')),
  cp: (args) =>
    within(args, COPY, (read) => writesWhy(read.operands.slice(0, -1), [...read.operands.slice(-1), ...valuesOf(read, '-t', '--target-directory')])),
  install: (args) =>
    within(
      args,
      spec(
        '-d -D -v -c -C -p -T -b --directory --verbose --compare --preserve-timestamps --no-target-directory --backup',
        '-m -t -o -g -S --mode --target-directory --owner --group --suffix',
      ),
      (read) => {
        const targets = [...read.operands.slice(-1), ...valuesOf(read, '-t', '--target-directory')];
        const writes = writesWhy(read.operands.slice(0, -1), targets);
        if (writes !== null || read.seen.some((o) => o.name === '-d' || o.name === '--directory')) return writes;
        const mode = valuesOf(read, '-m', '--mode')[0];
        if (mode === undefined) return 'install makes what it copies executable (mode 755) unless -m says otherwise';
        return mode.slot || GIVES_EXECUTE.test(mode.text) ? `-m ${mode.text} makes what it copies executable` : null;
      },
    ),
  dd: (args) => {
    const keys = args.map((a) => ({ arg: a, key: a.text.slice(0, Math.max(0, a.text.indexOf('='))) }));
    const bad = keys.find((k) => !/^(?:if|of|bs|ibs|obs|cbs|count|skip|seek|iseek|oseek|conv|status|iflag|oflag)$/.test(k.key));
    if (bad !== undefined) return `${bad.arg.text} is no dd operand vetted here`;
    const input = keys.find((k) => k.key === 'if');
    if (input === undefined) return 'it writes what it is handed on stdin (no if=)';
    const value = (k: { arg: Arg }): Arg => ({ ...k.arg, text: k.arg.text.slice(k.arg.text.indexOf('=') + 1) });
    return writesWhy([value(input)], keys.filter((k) => k.key === 'of').map(value));
  },
  tee: (args) => within(args, spec('-a -i -p --append --ignore-interrupts', '--output-error'), (read) => writesWhy([], read.operands)),
  chmod: (args) =>
    within(args, spec('-R -v -c -f --recursive --verbose --changes --silent --quiet', '--reference'), (read) => {
      const mode = read.operands[0];
      if (valuesOf(read, '--reference').length > 0) return 'it copies a mode from another file, which may make files executable';
      if (mode === undefined || mode.slot) return 'the caller chooses the mode, which may make files executable';
      return GIVES_EXECUTE.test(mode.text) ? `${mode.text} makes files executable` : null;
    }),
  curl: (args) => {
    if (args.some((a) => a.dash)) return `${args.find((a) => a.dash)?.text} may be any option, an output file among them`;
    const outputs = args.flatMap((a, i) =>
      /^(?:-[A-Za-z]*o|--output|--output-dir|-D|--dump-header|-c|--cookie-jar|--trace|--trace-ascii)$/.test(a.text) ? [args[i + 1]] : [],
    );
    return writesWhy(
      [],
      [
        ...outputs.filter((a): a is Arg => a !== undefined),
        ...args.filter((a) => /^--output(?:-dir)?=/.test(a.text)).map((a) => ({ ...a, text: a.text.slice(a.text.indexOf('=') + 1) })),
      ],
    );
  },
  wget: (args) => {
    if (args.some((a) => a.dash)) return `${args.find((a) => a.dash)?.text} may be any option, an output file among them`;
    const outputs = args.flatMap((a, i) =>
      /^(?:-[A-Za-z]*[OoPa]|--output-document|--directory-prefix|--output-file|--append-output)$/.test(a.text) ? [args[i + 1]] : [],
    );
    return writesWhy(
      [],
      [
        ...outputs.filter((a): a is Arg => a !== undefined),
        ...args.filter((a) => /^--(?:output-document|directory-prefix)=/.test(a.text)).map((a) => ({ ...a, text: a.text.slice(a.text.indexOf('=') + 1) })),
      ],
    );
  },
};

/** The names each shape answers to beyond its own (a Map: a program is the pack's text, and "constructor" is no alias). */
const ALIASES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    bsdtar: 'tar',
    gtar: 'tar',
    gsed: 'sed',
    gawk: 'awk',
    mawk: 'awk',
    nawk: 'awk',
    slogin: 'ssh',
    ncat: 'nc',
    netcat: 'nc',
    more: 'less',
    most: 'less',
    mv: 'cp',
    ln: 'cp',
  }),
);

/** The shape judgement for a shaped program `name`. */
export function shapeOf(name: string): ((args: readonly Arg[]) => string | null) | undefined {
  const shaped = ALIASES.get(name) ?? (/^nc\./.test(name) ? 'nc' : name);
  // SHAPES is a table of functions: an inherited key ("constructor") would be one too.
  return Object.hasOwn(SHAPES, shaped) ? SHAPES[shaped] : undefined;
}

/** The argv of programs that run code, vetted one by one: version queries and a few read-only subcommands. `<v>` is any value that cannot be an option. */
const EXACT: { program: RegExp; args: string[] }[] = [
  { program: /./, args: ['--version'] },
  { program: /^python[\d.]*$/, args: ['-V'] },
  { program: /^python[\d.]*$/, args: ['-I', '-m', 'json.tool'] },
  { program: /^python[\d.]*$/, args: ['-I', '-m', 'json.tool', '<v>'] },
  { program: /^python[\d.]*$/, args: ['-I', '-m', 'json.tool', '<v>', '<v>'] },
  { program: /^(?:node|nodejs|bun)$/, args: ['-v'] },
  { program: /^npm$/, args: ['ls'] },
  { program: /^npm$/, args: ['ls', '--json'] },
  { program: /^npm$/, args: ['view'] },
  { program: /^npm$/, args: ['view', '<v>'] },
  { program: /^npm$/, args: ['view', '<v>', '<v>'] },
  { program: /^pip3?$/, args: ['list'] },
  { program: /^pip3?$/, args: ['show'] },
  { program: /^pip3?$/, args: ['show', '<v>'] },
  { program: /^go$/, args: ['version'] },
  { program: /^go$/, args: ['env'] },
  { program: /^go$/, args: ['env', '<v>'] },
  { program: /^(?:docker|podman)$/, args: ['ps'] },
  { program: /^(?:docker|podman)$/, args: ['ps', '-a'] },
  { program: /^(?:docker|podman)$/, args: ['images'] },
  { program: /^(?:docker|podman|kubectl)$/, args: ['version'] },
  { program: /^systemctl$/, args: ['status', '<v>'] },
  { program: /^systemctl$/, args: ['is-active', '<v>'] },
  { program: /^systemctl$/, args: ['is-enabled', '<v>'] },
  { program: /^systemctl$/, args: ['list-units'] },
  { program: /^systemctl$/, args: ['--user', 'status', '<v>'] },
  { program: /^launchctl$/, args: ['list'] },
];

/** Whether `program args` is exactly one of the argv vetted one by one. */
export function exactlyVetted(program: string, args: readonly Arg[]): boolean {
  return EXACT.some(
    (shape) =>
      shape.program.test(program) &&
      shape.args.length === args.length &&
      shape.args.every((want, i) => {
        const arg = args[i] as Arg;
        return want === '<v>' ? !arg.dash && !arg.text.startsWith('-') : !arg.slot && arg.text === want;
      }),
  );
}
