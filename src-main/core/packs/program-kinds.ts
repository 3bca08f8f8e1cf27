/**
 * What a tool's program is, by name, for the scan's allow-list: a program that runs code it is
 * handed (an interpreter, a wrapper that runs another program, a build or package tool, an editor,
 * the dynamic loader, a scheduler or container runner), a program that can run code only through
 * some of its options (judged by its vetted shapes, vetted-shapes.ts), a program vetted as running
 * nothing it is handed, or none of these: unknown, which the scan says rather than passing in silence.
 */
import { baseName, readerText } from './shell-text.js';

/** A program's name as the scan classifies it: its last path segment, read as a reader would (lookalikes folded), lowercased, without `.exe`. */
export function programName(word: string): string {
  return readerText(baseName(word))
    .toLowerCase()
    .replace(/\.exe$/, '');
}

/** A name with an optional version tail: `python3.12`, `perl5.36`, `lua5.4`, `ruby3.3`, `php8.2`, `pypy3.10`, `python3.11-dbg`. */
const versioned = (names: string): RegExp => new RegExp(`^(?:${names})(?:[-_.]?\\d[\\d.]*)?(?:m|u|d|w|-dbg|-config)?$`);

/** Languages and shells: anything they are handed (a file, a module, a string, stdin) is a program. */
const INTERPRETERS = versioned(
  [
    'python|pythonw|py|pyw|pypy|jython|ipython|micropython',
    'perl|ruby|irb|jruby|php|php-cgi|lua|luajit|tclsh|wish|expect',
    'node|nodejs|deno|bun|qjs|rhino|jjs|jrunscript|jshell|java|javaw|groovy|scala|kotlin|kotlinc|swift|clojure|clj',
    'rscript|r|julia|octave|matlab|maxima|gnuplot',
    'osascript|pwsh|powershell|cmd|cscript|wscript|mshta|rundll32|regsvr32|msbuild|installutil',
    'bash|sh|zsh|dash|fish|ksh|mksh|pdksh|oksh|tcsh|csh|ash|yash|rc|xonsh|nu|elvish|ion',
    'erl|escript|elixir|iex|guile|racket|sbcl|clisp|ecl|gst|gforth|runghc|runhaskell|ghci|ocaml|utop|dc|m4',
    'sqlite3|psql|mysql|mariadb|duckdb|redis-cli|mongo|mongosh|cqlsh',
  ].join('|'),
);

/** Wrappers: they run the program named after them (and some, only some of the time: all are judged as if they do). */
const WRAPPERS = new Set(
  [
    'env nice nohup timeout stdbuf setsid chroot sudo doas su runuser pkexec sg newgrp flock watch strace ltrace gdb lldb valgrind',
    'time ionice taskset chrt unshare nsenter firejail bwrap xargs parallel exec command builtin caffeinate script unbuffer chronic',
    'cgexec prlimit torsocks proxychains proxychains4 tsocks faketime fakeroot eatmydata nocache trickle cpulimit rlwrap entr',
    'xvfb-run dbus-launch dbus-run-session ssh-agent start-stop-daemon daemonize screen tmux catchsegv setpriv capsh numactl',
    'direnv dotenv aws-vault op',
  ]
    .join(' ')
    .split(' '),
);

/** Build tools, package managers and runners: they run the build files of the project, or the install scripts of what they fetch. */
const BUILDERS = new Set(
  [
    'make gmake bmake nmake cmake ctest ninja meson scons bazel bazelisk buck buck2 gradle gradlew mvn mvnw ant sbt lein rake just task mage',
    'npm npx pnpm pnpx yarn yarnpkg bunx corepack pip pip3 pipx uv uvx easy_install cargo rustup go dotnet nuget gem bundle bundler',
    'composer mix rebar3 stack cabal opam dune xcodebuild pod carthage brew apt apt-get dnf yum pacman apk zypper snap flatpak',
    'guix spack vcpkg conan terraform tofu pulumi ansible ansible-playbook vagrant packer helm kubectl docker podman nerdctl',
    'buildah lxc incus qemu-system-x86_64 jupyter papermill pytest tox nox jest vitest mocha playwright cypress eslint prettier',
    'webpack vite rollup esbuild babel tsx ts-node mypy pylint rubocop pre-commit husky lefthook nix nix-shell conda mamba micromamba',
    'pipenv poetry pdm hatch rbenv pyenv asdf mise rtx',
  ]
    .join(' ')
    .split(' '),
);

/** Editors and pagers: they run their own commands (`-c`, `+cmd`, `--eval`, `!cmd`) and preprocessors (`LESSOPEN`). */
const EDITORS = new Set('vim vi nvim gvim view vimdiff ex evim rvim emacs emacsclient ed red nano pico joe mg kak hx micro'.split(' '));

/** Programs that run another at once, later or elsewhere: schedulers, service managers, openers, sockets with an exec. */
const LAUNCHERS = new Set('systemd-run systemctl launchctl at batch crontab schtasks open xdg-open gio kde-open gnome-open start socat'.split(' '));

/** The dynamic loader runs any executable it is handed, whatever its bits: `ld.so`, `ld-linux-x86-64.so.2`, `ld-musl-x86_64.so.1`. */
const LOADER = /^ld(?:-linux[\w.-]*|-musl[\w.-]*)?\.so(?:\.\d+)*$|^ld-linux|^ld\.so$/;

/**
 * Programs vetted as running nothing they are handed, whatever their arguments: they read, count,
 * print and look things up. (Those that can run a program through one option, like `sort
 * --compress-program` or `rg --pre`, are shaped programs instead.)
 */
const SAFE = new Set(
  [
    'ls cat head tail wc file stat du df free uptime uname whoami id groups date cal echo printf pwd hostname getent ping ping6',
    'traceroute tracepath dig host nslookup whois drill ps pgrep lsof ss netstat ifconfig arp route cut tr paste join comm cmp',
    'diff grep egrep fgrep ag jq yq xmllint tree basename dirname realpath readlink sha1sum sha224sum sha256sum sha384sum',
    'sha512sum md5sum b2sum cksum sum shasum base64 base32 od hexdump xxd strings nl fold fmt column expand unexpand rev tac seq',
    'sleep true false test expr numfmt factor nproc lscpu lsblk lsusb lspci lsmod sensors vmstat iostat mpstat top',
    'journalctl dmesg last w who users locale tty pdftotext pdfinfo pdftoppm pdfimages ffprobe mediainfo',
    'iconv uniq gzip gunzip zcat bzip2 bunzip2 bzcat xz unxz xzcat zstd unzstd lz4 unzip zipinfo mkdir touch rmdir rm',
    'mktemp truncate csplit shuf tsort look dos2unix unix2dos http xh say notify-send pbcopy pbpaste xclip xsel wl-copy wl-paste',
    'mdfind mdls sw_vers system_profiler scutil ipconfig systeminfo tasklist where findstr hostnamectl timedatectl',
    'lsb_release getconf printenv whatis apropos',
  ]
    .join(' ')
    .split(' '),
);

/** What kind of program `name` (a programName) is. */
export type ProgramKind = 'interpreter' | 'wrapper' | 'builder' | 'editor' | 'launcher' | 'loader' | 'shaped' | 'safe' | 'unknown';

/** Programs judged by their arguments, against the shapes vetted for them (vetted-shapes.ts). */
export const SHAPED = new Set(
  [
    'git find tar bsdtar gtar sed gsed awk gawk mawk nawk busybox toybox ssh scp sftp slogin rsync zip less more most nc ncat netcat',
    'sort rg pandoc man cp mv ln install dd tee chmod curl wget',
  ]
    .join(' ')
    .split(' '),
);

/** The kind of the program `name` (a programName). */
export function kindOf(name: string): ProgramKind {
  if (SHAPED.has(name) || /^nc\.(?:openbsd|traditional)$/.test(name)) return 'shaped';
  if (LOADER.test(name)) return 'loader';
  if (WRAPPERS.has(name)) return 'wrapper';
  if (BUILDERS.has(name)) return 'builder';
  if (EDITORS.has(name)) return 'editor';
  if (LAUNCHERS.has(name)) return 'launcher';
  if (INTERPRETERS.test(name)) return 'interpreter';
  if (SAFE.has(name)) return 'safe';
  return 'unknown';
}

/** What a program of each kind does with what it is handed, for the finding's message. */
export const KIND_DOES: Record<Exclude<ProgramKind, 'safe' | 'unknown' | 'shaped'>, string> = {
  interpreter: 'runs any code it is handed (a file, a module, a string, stdin)',
  wrapper: 'runs the program named after it',
  builder: 'runs the build files of the project, or the install scripts of what it fetches',
  editor: 'runs its own commands (-c, +cmd, --eval, !cmd) and preprocessors',
  launcher: 'starts another program, now, later or elsewhere',
  loader: 'runs any executable it is handed',
};
