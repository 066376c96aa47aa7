/*
 * tests/checkasm_aarch64.S — the callee-saved register trampoline for the stub
 * tests (dav1d's checkasm_checked_call): fill x19..x28 and d8..d15 with magic
 * values, call the stub, and report every register that came back different,
 * together with sp and fp.
 *
 *   uint64_t checkasm_call(void *fn, uint64_t a0, uint64_t a1, uint64_t a2,
 *                          uint64_t a3, uint64_t a4, uint32_t *clobbered);
 *
 * *clobbered gets bit i for x(19+i) (i 0..9), bit 10+j for d(8+j) (j 0..7),
 * bit 18 for sp and bit 19 for fp (x29). The stub's x0 is returned.
 * Only built for AArch64 hosts (tests/meson.build).
 */
    .bss
    .balign 8
saved_sp:
    .skip 8

    .text
    .balign 4

/* the magic value of register number n (distinct per register, never a lane pattern) */
#define MAGIC(n) (0xC4EC0A5300000000 + (n) * 0x01010101)

    .macro set_x n
    ldr x\n, =MAGIC(\n)
    .endm
    .macro set_d n
    ldr x10, =MAGIC(100 + \n)
    fmov d\n, x10
    .endm
    .macro check_x n, bit
    ldr x10, =MAGIC(\n)
    cmp x\n, x10
    cset x11, ne
    orr x12, x12, x11, lsl #\bit
    .endm
    .macro check_d n, bit
    fmov x13, d\n
    ldr x10, =MAGIC(100 + \n)
    cmp x13, x10
    cset x11, ne
    orr x12, x12, x11, lsl #\bit
    .endm

    .global checkasm_call
    .type checkasm_call, %function
checkasm_call:
    stp x29, x30, [sp, #-176]!
    mov x29, sp
    stp x19, x20, [sp, #16]
    stp x21, x22, [sp, #32]
    stp x23, x24, [sp, #48]
    stp x25, x26, [sp, #64]
    stp x27, x28, [sp, #80]
    stp d8, d9, [sp, #96]
    stp d10, d11, [sp, #112]
    stp d12, d13, [sp, #128]
    stp d14, d15, [sp, #144]
    stp x0, x6, [sp, #160]
    /* sp (= fp here) where the stub cannot reach it: a bad stub may break both */
    adrp x9, saved_sp
    add x9, x9, :lo12:saved_sp
    mov x10, sp
    str x10, [x9]

    set_x 19
    set_x 20
    set_x 21
    set_x 22
    set_x 23
    set_x 24
    set_x 25
    set_x 26
    set_x 27
    set_x 28
    set_d 8
    set_d 9
    set_d 10
    set_d 11
    set_d 12
    set_d 13
    set_d 14
    set_d 15

    mov x16, x0
    mov x0, x1
    mov x1, x2
    mov x2, x3
    mov x3, x4
    mov x4, x5
    blr x16

    mov x12, #0
    check_x 19, 0
    check_x 20, 1
    check_x 21, 2
    check_x 22, 3
    check_x 23, 4
    check_x 24, 5
    check_x 25, 6
    check_x 26, 7
    check_x 27, 8
    check_x 28, 9
    check_d 8, 10
    check_d 9, 11
    check_d 10, 12
    check_d 11, 13
    check_d 12, 14
    check_d 13, 15
    check_d 14, 16
    check_d 15, 17
    adrp x9, saved_sp
    add x9, x9, :lo12:saved_sp
    ldr x10, [x9]
    mov x13, sp
    cmp x13, x10
    cset x11, ne
    orr x12, x12, x11, lsl #18
    cmp x29, x10
    cset x11, ne
    orr x12, x12, x11, lsl #19
    mov sp, x10
    mov x29, x10

    ldp x16, x6, [sp, #160]
    str w12, [x6]
    ldp x19, x20, [sp, #16]
    ldp x21, x22, [sp, #32]
    ldp x23, x24, [sp, #48]
    ldp x25, x26, [sp, #64]
    ldp x27, x28, [sp, #80]
    ldp d8, d9, [sp, #96]
    ldp d10, d11, [sp, #112]
    ldp d12, d13, [sp, #128]
    ldp d14, d15, [sp, #144]
    ldp x29, x30, [sp], #176
    ret
    .ltorg
    .size checkasm_call, . - checkasm_call

    .section .note.GNU-stack, "", %progbits
