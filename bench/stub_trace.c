/*
 * bench/stub_trace.c — the instructions one call of a stub runs, traced natively: a breakpoint
 * at each of the stub's entries, then single steps until the call returns.
 *
 * bench/c2code.py traces the stubs under QEMU's execution log; QEMU's TCG has no AVX-512, so
 * the x86-64 AVX-512 stubs (minivm's avx512 and avx512-lanes, HotSpot 25's SHA-3 stub) cannot
 * be traced there. On a host that runs them, this traces them on the CPU itself, in the record
 * format c2code.py writes: the code bytes read from the process (not from a listing) and the
 * order the instructions ran.
 *
 *   stub_trace RANGE... -- PROGRAM ARG...
 *
 * RANGE is START-END in hex (a stub's bounds as -XX:+PrintStubCode prints them; at most eight).
 * PROGRAM runs with address-space randomization off (the addresses of a run of the same command
 * without the tracer hold), ptraced with every thread and process it starts (HotSpot calls the
 * stub from a thread of its own; scripts/oracle reaches java through sh, unshare and chroot),
 * its standard output sent to standard error. Its code is generated at run time, so the
 * breakpoints (int3) go in at the return of a system call, of any of its threads, once a RANGE
 * is in executable memory and written to its end (its first and last words hold something):
 * minivm's code when its mprotect(PROT_EXEC) returns, HotSpot's (its code cache is mapped
 * executable from the start) once the stub is generated. They go in the first process where
 * that holds, and again after that process execs another program. With every breakpoint in,
 * system calls no longer stop the program (code written over a breakpoint after that goes
 * untraced: exit 1). At the first entry into any RANGE it single-steps
 * that thread until its program counter is outside every RANGE (the stub returned), then prints
 * one line per instruction run, "OFFSET" in hex from the first RANGE's START, and a last line
 * "bytes RANGE-INDEX HEX" per RANGE with its code. It kills PROGRAM, then exits 0; 1 when no
 * RANGE was entered (PROGRAM's exit status given); 2 on bad usage, a failed ptrace call, or a
 * call that is not one plain call (a signal, PROGRAM's end, or more than 10,000,000
 * instructions inside the RANGEs).
 *
 * x86-64 Linux only; elsewhere it says so and exits 2. (Not the debug registers: the VMs this
 * project runs on, Docker on a hypervisor, accept them and never trap.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__linux__)
#include <signal.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_RANGES 8
#define MAX_STEPS 10000000L

struct range {
  uint64_t start, end;
};

static int inside(const struct range *r, int n, uint64_t pc) {
  for (int i = 0; i < n; i++)
    if (r[i].start <= pc && pc < r[i].end)
      return 1;
  return 0;
}

/* the end of a trace that cannot be one: PROGRAM killed, exit 2 */
static int refuse(pid_t child, const char *what) {
  fprintf(stderr, "stub_trace: %s\n", what);
  if (child > 0)
    kill(child, SIGKILL);
  return 2;
}

/* the same for a call that failed: what, and errno's reason */
static int fail(pid_t child, const char *what) {
  char why[160];
  snprintf(why, sizeof why, "%s: %s", what, strerror(errno));
  return refuse(child, why);
}

/* the process (thread group) of a thread: /proc/TID/status */
static pid_t tgid_of(pid_t tid) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
  FILE *f = fopen(path, "r");
  pid_t tgid = tid;
  if (!f)
    return tgid;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "Tgid: %d", &tgid) == 1)
      break;
  fclose(f);
  return tgid;
}

/* Is the page at `at` executable in tid's process? (/proc/TID/maps) */
static int executable(pid_t tid, uint64_t at) {
  char path[64], line[512];
  snprintf(path, sizeof path, "/proc/%d/maps", (int)tid);
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  int yes = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long long lo, hi;
    char perms[8];
    if (sscanf(line, "%llx-%llx %7s", &lo, &hi, perms) == 3 && lo <= at && at < hi) {
      yes = perms[2] == 'x';
      break;
    }
  }
  fclose(f);
  return yes;
}

/* int3 at a RANGE's START in one process; the byte it replaced kept */
struct plant {
  int in;
  pid_t tgid;
  unsigned char byte;
};

/* The word at `at`, or 0 where there is none to read */
static long peek(pid_t tid, uint64_t at) {
  errno = 0;
  long word = ptrace(PTRACE_PEEKTEXT, tid, (void *)at, NULL);
  return errno ? 0 : word;
}

static int plant(pid_t tid, const struct range *r, struct plant *p) {
  if (p->in)
    return 0;
  /* mapped, executable, and written to its end: a code generator writes in order, so nothing
     writes the word at START any more */
  uint64_t last = r->end - sizeof(long) > r->start ? r->end - sizeof(long) : r->start;
  long word = peek(tid, r->start);
  if (!word || !peek(tid, last) || !executable(tid, r->start))
    return 0;
  p->byte = (unsigned char)word;
  p->tgid = tgid_of(tid);
  p->in = 1;
  return (int)ptrace(PTRACE_POKETEXT, tid, (void *)r->start, (void *)((word & ~0xffL) | 0xcc));
}

static int unplant(pid_t tid, uint64_t at, const struct plant *p) {
  errno = 0;
  long word = ptrace(PTRACE_PEEKTEXT, tid, (void *)at, NULL);
  if (errno)
    return -1;
  if ((word & 0xff) != 0xcc)
    return 0;
  return (int)ptrace(PTRACE_POKETEXT, tid, (void *)at, (void *)((word & ~0xffL) | p->byte));
}

static int dump(pid_t tid, const struct range *r, int index) {
  printf("bytes %d ", index);
  for (uint64_t a = r->start; a < r->end; a += sizeof(long)) {
    errno = 0;
    long word = ptrace(PTRACE_PEEKTEXT, tid, (void *)a, NULL);
    if (errno)
      return -1;
    for (unsigned k = 0; k < sizeof(long) && a + k < r->end; k++)
      printf("%02x", (unsigned)((unsigned long)word >> (8 * k)) & 0xff);
  }
  printf("\n");
  return 0;
}

int main(int argc, char **argv) {
  struct range r[MAX_RANGES];
  int n = 0, i = 1;
  for (; i < argc && strcmp(argv[i], "--"); i++) {
    char *end;
    if (n == MAX_RANGES) {
      fprintf(stderr, "stub_trace: at most %d ranges\n", MAX_RANGES);
      return 2;
    }
    r[n].start = strtoull(argv[i], &end, 16);
    if (*end != '-' || (r[n].end = strtoull(end + 1, &end, 16), *end) || r[n].end <= r[n].start) {
      fprintf(stderr, "stub_trace: bad range %s (START-END in hex)\n", argv[i]);
      return 2;
    }
    n++;
  }
  if (n == 0 || i + 1 >= argc) {
    fprintf(stderr, "usage: stub_trace START-END... -- PROGRAM ARG...\n");
    return 2;
  }
  char **prog = argv + i + 1;
  pid_t child = fork();
  if (child < 0)
    return fail(0, "fork");
  if (child == 0) {
    personality(ADDR_NO_RANDOMIZE);
    dup2(2, 1); /* the program's output is not the trace */
    if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
      _exit(127);
    execvp(prog[0], prog);
    fprintf(stderr, "stub_trace: %s: %s\n", prog[0], strerror(errno));
    _exit(127);
  }
  int status;
  if (waitpid(child, &status, 0) != child || !WIFSTOPPED(status))
    return fail(child, "the program did not start");
  /* every thread and process it starts is traced too (they start stopped, by a SIGSTOP) */
  long options = PTRACE_O_EXITKILL | PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK |
                 PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC;
  if (ptrace(PTRACE_SETOPTIONS, child, NULL, (void *)options) != 0)
    return fail(child, "PTRACE_SETOPTIONS");
  struct plant planted[MAX_RANGES] = {{0}};
  int child_status = -1; /* PROGRAM's own end, for the message when no RANGE was entered */
  pid_t tid = child;     /* the thread to resume, and then the one that entered a RANGE */
  long pass = 0;         /* a signal of the program's own, passed on */
  int hit = -1;
  int armed = 0; /* every breakpoint in: no more stops at system calls */
  while (hit < 0) {
    if (tid > 0 && ptrace(armed ? PTRACE_CONT : PTRACE_SYSCALL, tid, NULL, (void *)pass) != 0 && errno != ESRCH)
      return fail(child, armed ? "PTRACE_CONT" : "PTRACE_SYSCALL");
    pass = 0;
    tid = waitpid(-1, &status, __WALL);
    if (tid < 0) {
      if (errno == EINTR)
        continue;
      if (errno != ECHILD)
        return fail(child, "waitpid");
      int st = child_status;
      fprintf(stderr, "stub_trace: %s ended (%s %d) without entering a range\n", prog[0],
              WIFSIGNALED(st) ? "signal" : "exit status", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
      return 1;
    }
    if (WIFEXITED(status) || WIFSIGNALED(status)) {
      if (tid == child)
        child_status = status;
      tid = 0; /* nothing to resume */
      continue;
    }
    int sig = WSTOPSIG(status);
    if (status >> 16 == PTRACE_EVENT_EXEC) {
      /* a new program in that process: its breakpoints went with the old one */
      for (int k = 0; k < n; k++)
        if (planted[k].in && planted[k].tgid == tid) {
          planted[k].in = 0;
          armed = 0;
        }
      continue;
    }
    if (status >> 16) /* a clone or fork reported: resume */
      continue;
    if (sig == SIGSTOP) /* a new thread's or process's first stop */
      continue;
    struct user_regs_struct regs;
    if (ptrace(PTRACE_GETREGS, tid, NULL, &regs) != 0) {
      if (errno == ESRCH) { /* killed meanwhile */
        tid = 0;
        continue;
      }
      return fail(child, "PTRACE_GETREGS");
    }
    if (sig == (SIGTRAP | 0x80)) {
      /* a system call's return (at its entry rax is -ENOSYS): the breakpoints in, or back in */
      if (regs.rax != (unsigned long long)-ENOSYS && !armed) {
        armed = 1;
        for (int k = 0; k < n; k++) {
          if (plant(tid, &r[k], &planted[k]) != 0)
            return fail(child, "PTRACE_POKETEXT (a breakpoint)");
          armed &= planted[k].in;
        }
      }
      continue;
    }
    if (sig == SIGTRAP)
      for (int k = 0; k < n; k++)
        if (planted[k].in && regs.rip == r[k].start + 1 && tgid_of(tid) == planted[k].tgid)
          hit = k;
    if (hit < 0) {
      pass = sig == SIGTRAP ? 0 : sig;
      continue;
    }
    /* the breakpoints out, the call resumed at its entry */
    for (int k = 0; k < n; k++)
      if (planted[k].in && planted[k].tgid == planted[hit].tgid && unplant(tid, r[k].start, &planted[k]) != 0)
        return fail(child, "PTRACE_POKETEXT");
    regs.rip = r[hit].start;
    if (ptrace(PTRACE_SETREGS, tid, NULL, &regs) != 0)
      return fail(child, "PTRACE_SETREGS");
  }
  /* the other threads stay stopped where they are, or run on: only tid is stepped */
  long steps = 0;
  for (;;) {
    struct user_regs_struct regs;
    if (ptrace(PTRACE_GETREGS, tid, NULL, &regs) != 0)
      return fail(child, "PTRACE_GETREGS");
    if (!inside(r, n, regs.rip))
      break;
    printf("%llx\n", (unsigned long long)(regs.rip - r[0].start));
    if (++steps > MAX_STEPS) {
      return refuse(child, "more than 10,000,000 instructions inside the ranges: not one plain call");
    }
    if (ptrace(PTRACE_SINGLESTEP, tid, NULL, NULL) != 0)
      return fail(child, "PTRACE_SINGLESTEP");
    if (waitpid(tid, &status, __WALL) != tid)
      return fail(child, "waitpid");
    if (!WIFSTOPPED(status))
      return refuse(child, "the program ended inside a range");
    if (WSTOPSIG(status) != SIGTRAP) {
      char why[96];
      snprintf(why, sizeof why, "signal %d inside a range: not one plain call", WSTOPSIG(status));
      return refuse(child, why);
    }
  }
  for (int k = 0; k < n; k++)
    if (dump(tid, &r[k], k) != 0)
      return fail(child, "PTRACE_PEEKTEXT");
  kill(tid, SIGKILL);
  kill(child, SIGKILL); /* and PTRACE_O_EXITKILL the rest */
  return 0;
}
#else
int main(void) {
  fprintf(stderr, "stub_trace: x86-64 Linux only (int3 and single steps through ptrace)\n");
  return 2;
}
#endif
