/*
 * tests/checkasm_x86_64.S — the callee-saved register trampoline for the x86-64
 * stub tests (dav1d's checkasm_checked_call): fill rbx, rbp and r12..r15 with
 * magic values, call the stub, and report what came back different.
 *
 *   uint64_t checkasm_call(void *fn, uint64_t a0, uint64_t a1, uint64_t a2,
 *                          uint64_t a3, uint64_t a4, uint32_t *clobbered);
 *
 * The stub gets a0..a4 in rdi, rsi, rdx, rcx, r8 as passed: callers put
 * garbage in the upper halves of 32-bit arguments to check they are ignored.
 * *clobbered gets bit 0 rbx, 1 rbp, 2 r12, 3 r13, 4 r14, 5 r15, 6 rsp (not
 * back where the call left it), 7 the direction flag set, 8 upper vector
 * state left dirty (XINUSE bits 2 or 6 after the call: no vzeroupper; only
 * checked when checkasm_xinuse is nonzero, i.e. XGETBV with ECX=1 exists and
 * tells: the upper state is cleaned before the call, so only the stub can
 * have dirtied it). The stub's rax is returned.
 *
 *   uint32_t checkasm_xinuse_after_vzeroupper(void);
 *
 * XINUSE right after a vzeroupper: 0 in bits 2 and 6 where the CPU (or an
 * emulator) tracks the state, so the check above means something.
 * Only built for x86-64 hosts (tests/meson.build).
 */
    .bss
    .balign 8
saved_rbp:
    .skip 8
saved_rsp:
    .skip 8
saved_clobbered:
    .skip 8

    .data
    .balign 4
    .globl checkasm_xinuse
checkasm_xinuse:
    .long 0

    .text

/* the magic value of register number n (distinct per register, never a lane pattern) */
#define MAGIC(n) (0xC4EC0A5300000000 + (n) * 0x01010101)

    .macro check r, n, bit
    movabsq $MAGIC(\n), %r11
    cmpq %r11, \r
    setne %al
    movzbl %al, %eax
    shll $\bit, %eax
    orl %eax, %r10d
    .endm

    .globl checkasm_call
    .type checkasm_call, @function
checkasm_call:
    pushq %rbp
    movq %rsp, %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp                   /* 16-byte aligned at the call below */
    movq 16(%rbp), %rax
    movq %rax, saved_clobbered(%rip)
    movq %rbp, saved_rbp(%rip)
    movq %rdi, %r11                 /* the stub */
    movq %rsi, %rdi                 /* a0..a4 */
    movq %rdx, %rsi
    movq %rcx, %rdx
    movq %r8, %rcx
    movq %r9, %r8
    movabsq $MAGIC(3), %rbx
    movabsq $MAGIC(5), %rbp
    movabsq $MAGIC(12), %r12
    movabsq $MAGIC(13), %r13
    movabsq $MAGIC(14), %r14
    movabsq $MAGIC(15), %r15
    cld
    cmpl $0, checkasm_xinuse(%rip)
    je 2f
    vzeroupper                      /* a clean start: only the stub can dirty it */
2:
    movq %rsp, saved_rsp(%rip)
    callq *%r11
    movq %rax, %r9                  /* the stub's result */
    xorl %r10d, %r10d
    check %rbx, 3, 0
    check %rbp, 5, 1
    check %r12, 12, 2
    check %r13, 13, 3
    check %r14, 14, 4
    check %r15, 15, 5
    cmpq saved_rsp(%rip), %rsp
    setne %al
    movzbl %al, %eax
    shll $6, %eax
    orl %eax, %r10d
    pushfq                          /* DF is bit 10 of rflags */
    popq %rax
    shrq $10, %rax
    andl $1, %eax
    shll $7, %eax
    orl %eax, %r10d
    movq saved_rsp(%rip), %rsp
    cmpl $0, checkasm_xinuse(%rip)
    je 1f
    movl $1, %ecx
    xgetbv                          /* XINUSE: bit 2 AVX (ymm upper), bit 6 ZMM_Hi256 */
    testl $0x44, %eax
    setne %al
    movzbl %al, %eax
    shll $8, %eax
    orl %eax, %r10d
1:
    movq saved_clobbered(%rip), %rax
    movl %r10d, (%rax)
    movq saved_rbp(%rip), %rbp
    movq %r9, %rax
    leaq -40(%rbp), %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size checkasm_call, .-checkasm_call

    .globl checkasm_xinuse_after_vzeroupper
    .type checkasm_xinuse_after_vzeroupper, @function
checkasm_xinuse_after_vzeroupper:
    vzeroupper
    movl $1, %ecx
    xgetbv
    ret
    .size checkasm_xinuse_after_vzeroupper, .-checkasm_xinuse_after_vzeroupper

    .section .note.GNU-stack, "", @progbits
