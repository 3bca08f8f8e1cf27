/*
 * Skilltray's network relay: the first process of a sandbox whose network goes through Skilltray's
 * filtering proxy. The sandbox has a network namespace of its own (loopback only), so the relay
 * listens on 127.0.0.1:PORT there, carries each connection to the proxy's Unix socket bound into
 * the sandbox, and runs the tool; it exits as the tool does. It is C so that it starts in about a
 * millisecond (Node takes tens) and needs nothing but libc. Linux only.
 *
 *   net-relay PORT SOCKET PROGRAM [ARG...]
 *
 * PROGRAM is an absolute path, run with the relay's environment. Exit status: the tool's, or
 * 128 + N when signal N ended it (as bwrap reports it); 125 when the relay cannot start, 127 when
 * the program cannot be run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHUNK 65536

static int fail(const char *what) {
  fprintf(stderr, "skilltray net-relay: %s: %s\n", what, strerror(errno));
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

int main(int argc, char **argv) {
  if (argc < 4 || argv[3][0] != '/') {
    fprintf(stderr, "usage: net-relay PORT SOCKET /ABSOLUTE/PROGRAM [ARG...]\n");
    return 125;
  }
  char *end;
  long port = strtol(argv[1], &end, 10);
  const char *path = argv[2];
  if (*end != '\0' || port < 1 || port > 65535 || strlen(path) >= sizeof((struct sockaddr_un){0}.sun_path)) {
    fprintf(stderr, "skilltray net-relay: bad port '%s' or socket path '%s'\n", argv[1], path);
    return 125;
  }
  /* Listening before the tool starts, so its first connection finds the relay. */
  int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in at = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  if (listener < 0 || bind(listener, (struct sockaddr *)&at, sizeof at) < 0 || listen(listener, 128) < 0) return fail("cannot listen on 127.0.0.1");
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
    execv(argv[3], argv + 3);
    fprintf(stderr, "skilltray net-relay: cannot run %s: %s\n", argv[3], strerror(errno));
    _exit(127);
  }
  /* Signals that end a run are the tool's to handle (the runner signals it directly); the relay ends with it. */
  signal(SIGTERM, SIG_IGN);
  signal(SIGINT, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);

  for (;;) {
    struct pollfd fds[2] = {{.fd = listener, .events = POLLIN}, {.fd = children, .events = POLLIN}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return fail("poll");
    }
    if (fds[1].revents & POLLIN) {
      struct signalfd_siginfo info;
      while (read(children, &info, sizeof info) > 0) continue;
      int status;
      pid_t pid;
      while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        if (pid == tool) return as_tool_ended(status);
      }
    }
    if (fds[0].revents & POLLIN) {
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
