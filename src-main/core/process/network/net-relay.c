/*
 * Skilltray's relay: the first process Skilltray starts inside a bubblewrap sandbox, between the
 * box and Skilltray outside it. It starts the tool and ends as the tool does, and on the way:
 *
 * - with -l PORT -s SOCKET (a run whose network is a list of hosts) it listens on
 *   127.0.0.1:PORT in the sandbox's own network namespace and carries each connection to the
 *   run's proxy, whose Unix socket is bound in at SOCKET;
 * - with -f FD it reads a seccomp filter (classic BPF, see socket-filter.ts) from FD and installs
 *   it on the tool alone, just before the tool starts: the relay itself must still create a Unix
 *   socket per connection, which the filter forbids the tool. Nothing in the sandbox may write
 *   the relay's memory (it is not dumpable, and the filter forbids ptrace);
 * - with -r FD and each -w FOLDER it writes `full FOLDER` on FD for each folder (a size-capped
 *   tmpfs) that has no room left when the tool ends, so the run's record can say the tool met
 *   that limit. FD is closed to the tool.
 *
 *   net-relay [-l PORT -s SOCKET] [-f FD] [-r FD [-w FOLDER]...] PROGRAM [ARG...]
 *
 * PROGRAM is an absolute path, run with the relay's environment. Exit status: the tool's, or
 * 128 + N when signal N ended it (as bwrap reports it); 125 when the relay cannot start, 127 when
 * the program cannot be run. It is C so that it starts in about a millisecond (Node takes tens)
 * and needs nothing but libc. Linux only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHUNK 65536
#define MAX_FOLDERS 8
/* A filter longer than this is not one of Skilltray's: BPF_MAXINSNS instructions of 8 bytes. */
#define MAX_FILTER (4096 * 8)

static int fail(const char *what) {
  fprintf(stderr, "skilltray net-relay: %s: %s\n", what, strerror(errno));
  return 125;
}

static int usage(const char *why) {
  fprintf(stderr, "skilltray net-relay: %s\nusage: net-relay [-l PORT -s SOCKET] [-f FD] [-r FD [-w FOLDER]...] /ABSOLUTE/PROGRAM [ARG...]\n", why);
  return 125;
}

/* One direction of a connection: bytes read from `from` wait in `buf` until `to` takes them. */
struct lane {
  int from, to;
  char buf[CHUNK];
  size_t len, off;
  int eof;
};

/* Copies both ways between the sandbox's client and the proxy until both sides are done. */
static void carry(int client, const char *path) {
  int proxy = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  strcpy(addr.sun_path, path);
  if (proxy < 0 || connect(proxy, (struct sockaddr *)&addr, sizeof addr) < 0) return;
  fcntl(client, F_SETFL, O_NONBLOCK);
  fcntl(proxy, F_SETFL, O_NONBLOCK);
  static struct lane up, down;
  up = (struct lane){.from = client, .to = proxy};
  down = (struct lane){.from = proxy, .to = client};
  struct lane *lanes[2] = {&up, &down};
  while (!(up.eof && up.len == 0) || !(down.eof && down.len == 0)) {
    struct pollfd fds[4];
    int n = 0;
    for (int i = 0; i < 2; i++) {
      struct lane *l = lanes[i];
      if (l->len > 0) fds[n++] = (struct pollfd){.fd = l->to, .events = POLLOUT};
      else if (!l->eof) fds[n++] = (struct pollfd){.fd = l->from, .events = POLLIN};
    }
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    for (int i = 0; i < 2; i++) {
      struct lane *l = lanes[i];
      if (l->len > 0) {
        ssize_t w = write(l->to, l->buf + l->off, l->len);
        if (w < 0 && errno != EAGAIN && errno != EINTR) return;
        if (w > 0) {
          l->off += (size_t)w;
          l->len -= (size_t)w;
        }
        if (l->len == 0 && l->eof) shutdown(l->to, SHUT_WR);
      } else if (!l->eof) {
        ssize_t r = read(l->from, l->buf, CHUNK);
        if (r < 0 && errno != EAGAIN && errno != EINTR) return;
        if (r == 0) {
          l->eof = 1;
          shutdown(l->to, SHUT_WR);
        } else if (r > 0) {
          l->len = (size_t)r;
          l->off = 0;
        }
      }
    }
  }
}

/* Ends the relay the way the tool ended. */
static int as_tool_ended(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}

/* A whole non-negative number, or -1. */
static long number(const char *text, long max) {
  char *end;
  errno = 0;
  long n = strtol(text, &end, 10);
  return errno != 0 || *end != '\0' || end == text || n < 0 || n > max ? -1 : n;
}

/* Reads the filter from `fd` (to its end) into `out`; its length in bytes, or -1. */
static ssize_t read_filter(int fd, unsigned char *out) {
  size_t len = 0;
  for (;;) {
    ssize_t r = read(fd, out + len, MAX_FILTER - len);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;
    len += (size_t)r;
    if (len == MAX_FILTER) return -1;
  }
  close(fd);
  return len == 0 || len % sizeof(struct sock_filter) != 0 ? -1 : (ssize_t)len;
}

/* Writes `full FOLDER` on `fd` for each folder with no block or no inode left. */
static void report_full(int fd, char **folders, int count) {
  for (int i = 0; i < count; i++) {
    struct statfs fs;
    if (statfs(folders[i], &fs) != 0) continue;
    if (fs.f_bavail == 0 || (fs.f_files > 0 && fs.f_ffree == 0)) dprintf(fd, "full %s\n", folders[i]);
  }
}

int main(int argc, char **argv) {
  long port = -1, filter_fd = -1, report_fd = -1;
  const char *path = NULL;
  char *folders[MAX_FOLDERS];
  int nfolders = 0, opt;
  while ((opt = getopt(argc, argv, "+l:s:f:r:w:")) != -1) {
    switch (opt) {
      case 'l': port = number(optarg, 65535); if (port < 1) return usage("bad port"); break;
      case 's': path = optarg; break;
      case 'f': filter_fd = number(optarg, 1 << 20); if (filter_fd < 3) return usage("bad filter fd"); break;
      case 'r': report_fd = number(optarg, 1 << 20); if (report_fd < 3) return usage("bad report fd"); break;
      case 'w': if (nfolders == MAX_FOLDERS) return usage("too many folders"); folders[nfolders++] = optarg; break;
      default: return usage("unknown option");
    }
  }
  if (optind >= argc || argv[optind][0] != '/') return usage("no absolute program");
  if ((port < 0) != (path == NULL)) return usage("-l and -s go together");
  if (path != NULL && strlen(path) >= sizeof((struct sockaddr_un){0}.sun_path)) return usage("socket path too long");
  char **program = argv + optind;

  /* Nothing in the sandbox attaches to the relay or writes its memory (/proc/PID/mem): it may hold what the tool must not. */
  if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) return fail("prctl");
  static unsigned char filter[MAX_FILTER];
  ssize_t filter_len = -1;
  if (filter_fd >= 0 && (filter_len = read_filter((int)filter_fd, filter)) < 0) return usage("cannot read a seccomp filter from the filter fd");
  if (report_fd >= 0 && fcntl((int)report_fd, F_SETFD, FD_CLOEXEC) != 0) return fail("report fd");

  /* Listening before the tool starts, so its first connection finds the relay. */
  int listener = -1;
  if (path != NULL) {
    listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in at = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (listener < 0 || bind(listener, (struct sockaddr *)&at, sizeof at) < 0 || listen(listener, 128) < 0) return fail("cannot listen on 127.0.0.1");
  }
  sigset_t chld, before;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, &before);
  int children = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
  if (children < 0) return fail("signalfd");

  pid_t tool = fork();
  if (tool < 0) return fail("fork");
  if (tool == 0) {
    sigprocmask(SIG_SETMASK, &before, NULL);
    if (filter_len > 0) {
      struct sock_fprog prog = {.len = (unsigned short)(filter_len / sizeof(struct sock_filter)), .filter = (struct sock_filter *)filter};
      if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
        fprintf(stderr, "skilltray net-relay: cannot install the socket filter: %s\n", strerror(errno));
        _exit(125);
      }
    }
    execv(program[0], program);
    fprintf(stderr, "skilltray net-relay: cannot run %s: %s\n", program[0], strerror(errno));
    _exit(127);
  }
  /* Signals that end a run are the tool's to handle (the runner signals it directly); the relay ends with it. */
  signal(SIGTERM, SIG_IGN);
  signal(SIGINT, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);

  for (;;) {
    struct pollfd fds[2] = {{.fd = children, .events = POLLIN}, {.fd = listener, .events = POLLIN}};
    if (poll(fds, listener < 0 ? 1 : 2, -1) < 0) {
      if (errno == EINTR) continue;
      return fail("poll");
    }
    if (fds[0].revents & POLLIN) {
      struct signalfd_siginfo info;
      while (read(children, &info, sizeof info) > 0) continue;
      int status;
      pid_t pid;
      while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        if (pid != tool) continue;
        if (report_fd >= 0) report_full((int)report_fd, folders, nfolders);
        return as_tool_ended(status);
      }
    }
    if (listener >= 0 && (fds[1].revents & POLLIN)) {
      int client = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
      if (client < 0) continue;
      pid_t carrier = fork();
      if (carrier == 0) {
        close(listener);
        close(children);
        carry(client, path);
        _exit(0);
      }
      close(client);
    }
  }
}
