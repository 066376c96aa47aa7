/*
 * bench/stub_trace.c — the instructions one call of a stub runs, traced natively: a breakpoint
 * at each of the stub's entries, then single steps until the call returns.
 *
 * bench/c2code.py traces the stubs under QEMU's execution log; QEMU's TCG has no AVX-512, so
 * the x86-64 AVX-512 stubs (minivm's avx512 and avx512-lanes) cannot be traced there. On a host
 * that runs them, this traces them on the CPU itself, in the record format c2code.py writes:
 * the code bytes read from the process (not from a listing) and the order the instructions ran.
 *
 *   stub_trace RANGE... -- PROGRAM ARG...
 *
 * RANGE is START-END in hex (a stub's bounds as -XX:+PrintStubCode prints them; at most eight).
 * PROGRAM runs with address-space randomization off (the addresses of a run of the same command
 * without the tracer hold), ptraced, its standard output sent to standard error. Its code is
 * generated at run time, so the breakpoints (int3) go in when it makes the code executable: at
 * the return of each mprotect(PROT_EXEC) that covers a RANGE's START (again at each such call:
 * the code may be written after an earlier one). At the first entry into any RANGE
 * it single-steps until the program counter is outside every RANGE (the stub returned), then
 * prints one line per instruction run, "OFFSET" in hex from the first RANGE's START, and a last
 * line "bytes RANGE-INDEX HEX" per RANGE with its code. It kills PROGRAM, then exits 0; 1 when
 * no RANGE was entered (PROGRAM's exit status given), 2 on bad usage or a failed ptrace call.
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
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/syscall.h>
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

static int fail(pid_t child, const char *what) {
  fprintf(stderr, "stub_trace: %s: %s\n", what, strerror(errno));
  if (child > 0)
    kill(child, SIGKILL);
  return 2;
}

/* int3 at a RANGE's START, the word it replaced kept */
struct plant {
  int in;
  long word;
};

static int plant(pid_t child, uint64_t at, struct plant *p) {
  errno = 0;
  long word = ptrace(PTRACE_PEEKTEXT, child, (void *)at, NULL);
  if (errno)
    return -1;
  if (p->in && (word & 0xff) == 0xcc)
    return 0; /* still ours */
  p->word = word;
  p->in = 1;
  return (int)ptrace(PTRACE_POKETEXT, child, (void *)at, (void *)((word & ~0xffL) | 0xcc));
}

static int dump(pid_t child, const struct range *r, int index) {
  printf("bytes %d ", index);
  for (uint64_t a = r->start; a < r->end; a += sizeof(long)) {
    errno = 0;
    long word = ptrace(PTRACE_PEEKTEXT, child, (void *)a, NULL);
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
  if (ptrace(PTRACE_SETOPTIONS, child, NULL, (void *)(long)(PTRACE_O_EXITKILL | PTRACE_O_TRACESYSGOOD)) != 0)
    return fail(child, "PTRACE_SETOPTIONS");
  struct plant planted[MAX_RANGES] = {{0}};
  long pass = 0;   /* a signal of the program's own, passed on */
  int in_call = 0; /* syscall stops come in pairs: entry, exit */
  int hit = -1;
  while (hit < 0) {
    if (ptrace(PTRACE_SYSCALL, child, NULL, (void *)pass) != 0)
      return fail(child, "PTRACE_SYSCALL");
    pass = 0;
    if (waitpid(child, &status, 0) != child)
      return fail(child, "waitpid");
    if (WIFEXITED(status) || WIFSIGNALED(status)) {
      fprintf(stderr, "stub_trace: %s ended (%s %d) without entering a range\n", prog[0],
              WIFEXITED(status) ? "exit status" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
      return 1;
    }
    struct user_regs_struct regs;
    if (ptrace(PTRACE_GETREGS, child, NULL, &regs) != 0)
      return fail(child, "PTRACE_GETREGS");
    if (WSTOPSIG(status) == (SIGTRAP | 0x80)) {
      in_call = !in_call;
      /* mprotect(addr, len, prot) returned 0 with PROT_EXEC: the code there is final */
      if (!in_call && regs.orig_rax == SYS_mprotect && regs.rax == 0 && (regs.rdx & PROT_EXEC))
        for (int k = 0; k < n; k++)
          if (regs.rdi <= r[k].start && r[k].start < regs.rdi + regs.rsi && plant(child, r[k].start, &planted[k]))
            return fail(child, "PTRACE_POKETEXT (a breakpoint)");
      continue;
    }
    if (WSTOPSIG(status) == SIGTRAP)
      for (int k = 0; k < n; k++)
        if (planted[k].in && regs.rip == r[k].start + 1)
          hit = k;
    if (hit < 0) {
      pass = WSTOPSIG(status) == SIGTRAP ? 0 : WSTOPSIG(status);
      continue;
    }
    /* the breakpoints out, the call resumed at its entry */
    for (int k = 0; k < n; k++)
      if (planted[k].in && ptrace(PTRACE_POKETEXT, child, (void *)r[k].start, (void *)planted[k].word) != 0)
        return fail(child, "PTRACE_POKETEXT");
    regs.rip = r[hit].start;
    if (ptrace(PTRACE_SETREGS, child, NULL, &regs) != 0)
      return fail(child, "PTRACE_SETREGS");
  }
  long steps = 0;
  for (;;) {
    struct user_regs_struct regs;
    if (ptrace(PTRACE_GETREGS, child, NULL, &regs) != 0)
      return fail(child, "PTRACE_GETREGS");
    if (!inside(r, n, regs.rip))
      break;
    printf("%llx\n", (unsigned long long)(regs.rip - r[0].start));
    if (++steps > MAX_STEPS) {
      fprintf(stderr, "stub_trace: more than %ld instructions inside the ranges: not one call\n", MAX_STEPS);
      kill(child, SIGKILL);
      return 2;
    }
    if (ptrace(PTRACE_SINGLESTEP, child, NULL, NULL) != 0)
      return fail(child, "PTRACE_SINGLESTEP");
    if (waitpid(child, &status, 0) != child || !WIFSTOPPED(status))
      return fail(child, "the program ended inside a range");
  }
  for (int k = 0; k < n; k++)
    if (dump(child, &r[k], k) != 0)
      return fail(child, "PTRACE_PEEKTEXT");
  kill(child, SIGKILL);
  waitpid(child, &status, 0);
  return 0;
}
#else
int main(void) {
  fprintf(stderr, "stub_trace: x86-64 Linux only (its debug registers through ptrace)\n");
  return 2;
}
#endif
