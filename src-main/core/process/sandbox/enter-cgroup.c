/*
 * Skilltray's cgroup launcher: it puts itself into a run's cgroup, then becomes the sandbox
 * (bwrap), so the sandbox and everything it starts are born in the cgroup and nothing of the run
 * ever runs outside it.
 *
 *   enter-cgroup FILE... -- /ABSOLUTE/PROGRAM [ARG...]
 *
 * Each FILE is where a process enters one cgroup: `tasks` on cgroup v1, `cgroup.procs` on v2.
 * Writing "0" there moves the writer. On v1 the kernel moves a thread that moves itself through
 * `tasks` without its global lock, while any other move waits for an RCU grace period (5-17 ms
 * measured, paid before every run when Skilltray moved bwrap from outside); the launcher is one
 * thread, so moving that thread moves the whole process.
 *
 * Exit status: 125 with a `skilltray enter-cgroup:` line on stderr when it cannot enter a cgroup
 * (the program never runs), 127 when the program cannot be run. C, so that it costs an exec and
 * no more. Linux only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int refuse(const char *why, const char *what) {
  fprintf(stderr, "skilltray enter-cgroup: %s %s: %s\n", why, what, strerror(errno));
  return 125;
}

static int usage(const char *why) {
  fprintf(stderr, "skilltray enter-cgroup: %s\nusage: enter-cgroup FILE... -- /ABSOLUTE/PROGRAM [ARG...]\n", why);
  return 125;
}

int main(int argc, char **argv) {
  int end = 1;
  while (end < argc && strcmp(argv[end], "--") != 0) end++;
  if (end == 1) return usage("no cgroup to enter");
  if (end + 1 >= argc || argv[end + 1][0] != '/') return usage("no absolute program");
  for (int i = 1; i < end; i++) {
    if (argv[i][0] != '/') return usage("a cgroup file must be an absolute path");
    int fd = open(argv[i], O_WRONLY | O_CLOEXEC);
    if (fd < 0) return refuse("cannot open", argv[i]);
    ssize_t written = write(fd, "0", 1);
    int saved = errno;
    close(fd);
    errno = saved;
    if (written != 1) return refuse("cannot enter", argv[i]);
  }
  char **program = argv + end + 1;
  execv(program[0], program);
  fprintf(stderr, "skilltray enter-cgroup: cannot run %s: %s\n", program[0], strerror(errno));
  return 127;
}
