#!/usr/bin/env python3
"""tests/gen_x64_goldens.py — reference bytes for the x86-64 encoder, from llvm-mc.

For every encoder form of cpu/x86_64/assembler_x86_64.h this picks random
operands (every general register, xmm0..xmm15 in SSE and VEX forms and xmm0..xmm31 in
EVEX forms, k0..k7, every vector length a form allows, memory operands over
every base and index, every scale and every displacement class, EVEX disp8*N
boundaries included, immediates with their end points), writes each case as
Intel-syntax assembly, assembles the lot with

    llvm-mc -triple=x86_64 -mattr=+avx2,... -x86-asm-syntax=intel -output-asm-variant=1 -show-encoding

and writes one line per case:

    form <TAB> operands (space-separated integers) <TAB> bytes (hex, space-separated) <TAB> assembly text

The operands are the arguments of the C call in order, after `as`
(tests/test_x64_encoder.c says which call each form makes): registers by
number (rax..r15 0..15, xmm0..xmm31 0..31, k0..k7 0..7), enums by value, a
memory operand as four numbers, base index scale disp (index -1: none),
bools as 0/1. Two forms need a setting the C call does not show: jmp/jcc take
the label's distance from the jump (bytes; <= 0: bound before the jump, > 0: a
forward jump, bound later), and lea_rip the offset the instruction starts at
before its target. Their bytes come from an object file (llvm-mc
-filetype=obj), one section per case, as -show-encoding leaves jumps to labels
as fixups; the forward jumps are written {disp32}, the rel32 form minivm uses.

Where llvm-mc has two encodings for one text, the goldens follow what minivm
is specified to emit: mov_ri's text is the encoding minivm chooses (mov r32,
mov r64 with a simm32, movabs), so the bytes are checked, not the choice; and
test_ri_32 leaves out eax, which llvm-mc encodes with its short form A9 while
the header promises F7 /0 (tests/test_x64_encoder.c checks eax itself); test_ri,
the 64-bit form, follows llvm-mc (REX.W A9 id for rax) and takes every register.

Regenerate: tests/gen_x64_goldens.py > tests/data/x64_goldens.txt (the command line, its
live mode included, is tests/golden_gen.py's).
"""
import os
import random
import struct
import sys
import tempfile

import golden_gen

SEED = 20250611
CASES_PER_FORM = 60
MATTR = '+avx2,+bmi,+bmi2,+avx512f,+avx512bw,+avx512vl,+avx512dq,+sha'
LLVM_MC = ['llvm-mc', '-triple=x86_64', '-mattr=' + MATTR, '-x86-asm-syntax=intel']
SHOW_ENCODING = LLVM_MC + ['-output-asm-variant=1', '-show-encoding']
OBJECT = LLVM_MC + ['-filetype=obj']

GPR64 = ['rax', 'rcx', 'rdx', 'rbx', 'rsp', 'rbp', 'rsi', 'rdi',
         'r8', 'r9', 'r10', 'r11', 'r12', 'r13', 'r14', 'r15']
GPR32 = ['eax', 'ecx', 'edx', 'ebx', 'esp', 'ebp', 'esi', 'edi',
         'r8d', 'r9d', 'r10d', 'r11d', 'r12d', 'r13d', 'r14d', 'r15d']
XMM = ['xmm%d' % n for n in range(16)]       # SSE and VEX: xmm0..xmm15
VREG = ['xmm', 'ymm', 'zmm']                  # by x64_vlen
VPTR = ['xmmword', 'ymmword', 'zmmword']
ALU = ['add', 'or', 'and', 'sub', 'xor', 'cmp']                       # x64_alu
SHIFT = {0: 'rol', 1: 'ror', 4: 'shl', 5: 'shr', 7: 'sar'}           # x64_shift
COND = ['o', 'no', 'b', 'ae', 'e', 'ne', 'be', 'a', 's', 'ns', 'p', 'np', 'l', 'ge', 'le', 'g']
VOP = ['vpxor', 'vpand', 'vpandn', 'vpor', 'vpaddq', 'vpsllvq', 'vpsrlvq', 'vpunpcklqdq',
       'vpunpckhqdq', 'vpaddd']                                       # x64_vop
EVOP = ['vpxorq', 'vpandq', 'vpandnq', 'vporq', 'vpermt2q', 'vpermq', 'vprolvq', 'vpsllvq',
        'vpsrlvq']                                                    # x64_evop
EVOP_PERMQ_V = 5
SSEOP = ['paddd', 'pxor', 'pshufb', 'sha1nexte', 'sha1msg1', 'sha1msg2', 'sha256rnds2', 'sha256msg1',
         'sha256msg2']                                                # x64_sseop
SSEOP_I = ['pshufd', 'palignr', 'pblendw', 'sha1rnds4']               # x64_sseop_i
SSEOP_SHA1RNDS4 = 3
INT32_MIN, INT32_MAX = -2 ** 31, 2 ** 31 - 1
EVEX = '{evex} '   # llvm-mc picks VEX for an xmm0..15 text that VEX can also encode


class Gen:
    """Operand pickers. Registers, vector lengths, memory shapes come from
    shuffled decks (one per form and operand), so every value appears once
    every len(deck) draws; immediates and displacements mix end points in."""

    def __init__(self, rnd):
        self.r = rnd
        self.form = ''
        self.decks = {}

    def deck(self, key, items):
        d = self.decks.get((self.form, key))
        if not d:
            d = list(items)
            self.r.shuffle(d)
            self.decks[(self.form, key)] = d
        return d.pop()

    def gpr(self, key):
        return self.deck(key, range(16))

    def xmm(self, key):          # VEX: xmm0..xmm15
        return self.deck(key, range(16))

    def zmm(self, key):          # EVEX: xmm0..xmm31
        return self.deck(key, range(32))

    def k(self, key):
        return self.deck(key, range(8))

    def vlen(self, key, allowed):
        return self.deck(key, allowed)

    def imm(self, lo, hi, specials=()):
        """uniform in lo..hi, with lo, hi and the specials often"""
        k = self.r.random()
        if k < 0.1:
            return lo
        if k < 0.2:
            return hi
        if specials and k < 0.4:
            return self.r.choice(specials)
        return self.r.randint(lo, hi)

    def disp(self, key, n):
        """a displacement of every class: none, disp8, disp32; for EVEX (n > 1)
        a multiple of n whose quotient fits in 8 bits, one that does not, and a
        non-multiple (always disp32 there)"""
        if n == 1:
            kind = self.deck(key, ['zero', 'd8', 'd32'])
            if kind == 'zero':
                return 0
            if kind == 'd8':
                return self.r.choice([-128, 127, -1, 1, self.r.randint(-128, 127) or 64])
            if self.r.random() < 0.4:
                return self.r.choice([128, -129, INT32_MAX, INT32_MIN])
            v = self.r.randint(INT32_MIN, INT32_MAX)
            return v if not -128 <= v <= 127 else v + 4096
        kind = self.deck(key, ['zero', 'fit', 'over', 'odd'])
        if kind == 'zero':
            return 0
        if kind == 'fit':
            return n * self.r.choice([-128, 127, -1, 1, self.r.randint(-128, 127) or 2])
        if kind == 'over':
            return n * self.r.choice([128, -129, self.r.randint(129, INT32_MAX // n),
                                      -self.r.randint(130, -(INT32_MIN // n))])
        v = self.r.choice([n // 2, 1, -1, 127, -128, 4, self.r.randint(-128 * n, 127 * n)])
        return v if v % n else v + 1

    def mem(self, key, n=1):
        """[base + index*scale + disp] as the four operands; n: the EVEX tuple size"""
        base = self.deck(key + '.base', range(16))
        index = self.deck(key + '.index', [-1] + [r for r in range(16) if r != 4])
        scale = self.deck(key + '.scale', [1, 2, 4, 8]) if index >= 0 else 1
        return [base, index, scale, self.disp(key + '.disp', n)]


def mem_text(m, size):
    base, index, scale, disp = m
    s = GPR64[base]
    if index >= 0:
        s += ' + %s*%d' % (GPR64[index], scale)
    if disp:
        s += (' + %d' if disp > 0 else ' - %d') % abs(disp)
    return ('%s ptr [%s]' % (size, s)) if size else '[%s]' % s


def mask_text(k, z):
    return ('' if k == 0 else ' {k%d}' % k) + (' {z}' if z else '')


def vr(l, n):
    return '%s%d' % (VREG[l], n)


class Obj:
    """A case assembled into an object file, in a section of its own: the
    instruction is bytes start..size-trailing of the section."""

    def __init__(self, lines, start, trailing):
        self.lines, self.start, self.trailing = lines, start, trailing


# ---- forms: name -> (function(g) returning (operands, text[, Obj]) or None to re-draw, weight) ----

FORMS = {}


def form(name, weight=1):
    def deco(fn):
        FORMS[name] = (fn, weight)
        return fn
    return deco


# The forms of one instruction on registers and memory: regs names the registers (GPR64,
# GPR32, XMM), size the memory operand's ('qword'; None: lea's none)

def reg_form(name, mnemonic, regs):
    def fn(g):
        r = g.deck('r', range(len(regs)))
        return [r], '%s %s' % (mnemonic, regs[r])
    FORMS[name] = (fn, 1)


def reg_reg_form(name, mnemonic, dregs, sregs):
    def fn(g):
        d, s = g.deck('d', range(len(dregs))), g.deck('s', range(len(sregs)))
        return [d, s], '%s %s, %s' % (mnemonic, dregs[d], sregs[s])
    FORMS[name] = (fn, 1)


def reg_mem_form(name, mnemonic, size, regs):
    def fn(g):
        d, m = g.deck('d', range(len(regs))), g.mem('m')
        return [d] + m, '%s %s, %s' % (mnemonic, regs[d], mem_text(m, size))
    FORMS[name] = (fn, 1)


def mem_reg_form(name, mnemonic, size, regs):
    def fn(g):
        m, s = g.mem('m'), g.deck('s', range(len(regs)))
        return m + [s], '%s %s, %s' % (mnemonic, mem_text(m, size), regs[s])
    FORMS[name] = (fn, 1)


# integer moves

reg_reg_form('mov_rr', 'mov', GPR64, GPR64)
reg_reg_form('mov_rr_32', 'mov', GPR32, GPR32)
reg_mem_form('mov_rm', 'mov', 'qword', GPR64)
reg_mem_form('mov_rm_32', 'mov', 'dword', GPR32)
mem_reg_form('mov_mr', 'mov', 'qword', GPR64)
mem_reg_form('mov_mr_32', 'mov', 'dword', GPR32)
reg_mem_form('lea', 'lea', None, GPR64)


@form('mov_ri')
def _(g):
    d = g.gpr('d')
    kind = g.deck('kind', ['u32', 'neg32', 'wide'])
    if kind == 'u32':
        imm = g.imm(0, 0xffffffff, [1, 0x7fffffff, 0x80000000, 255])
    elif kind == 'neg32':
        imm = g.imm(INT32_MIN, -1, [-2])
    else:
        imm = g.r.choice([0x100000000, 2 ** 63 - 1, INT32_MIN - 1, -2 ** 63,
                          g.r.randint(0x100000000, 2 ** 63 - 1), g.r.randint(-2 ** 63, INT32_MIN - 1)])
    # the text of the encoding minivm chooses (llvm-mc would pick C7 for a small `mov rax, imm`)
    if 0 <= imm <= 0xffffffff:
        text = 'mov %s, %d' % (GPR32[d], imm)
    elif INT32_MIN <= imm < 0:
        text = 'mov %s, %d' % (GPR64[d], imm)
    else:
        text = 'movabs %s, %d' % (GPR64[d], imm)
    return [d, imm], text


@form('lea_rip')
def _(g):
    d = g.gpr('d')
    origin = g.imm(0, 60000, [7, 100])
    target = g.r.choice([0, origin, origin + 7, g.r.randint(0, 60000), INT32_MAX, INT32_MAX + origin + 7,
                         g.r.randint(0, INT32_MAX)])
    disp = target - origin - 7
    return [d, origin, target], 'lea %s, [rip %s %d]' % (GPR64[d], '+' if disp >= 0 else '-', abs(disp))


# arithmetic and logic

IMM32_SPECIALS = [0, 1, -1, 127, -128, 128, -129, INT32_MAX, INT32_MIN]


def imm32(g):
    if g.deck('immkind', ['i8', 'i32']) == 'i8':
        return g.imm(-128, 127, [0, 1, -1])
    return g.imm(INT32_MIN, INT32_MAX, IMM32_SPECIALS)


@form('alu_rr', 2)
def _(g):
    op, d, s = g.deck('op', range(6)), g.gpr('d'), g.gpr('s')
    return [op, d, s], '%s %s, %s' % (ALU[op], GPR64[d], GPR64[s])


@form('alu_rr_32', 2)
def _(g):
    op, d, s = g.deck('op', range(6)), g.gpr('d'), g.gpr('s')
    return [op, d, s], '%s %s, %s' % (ALU[op], GPR32[d], GPR32[s])


@form('alu_rm', 2)
def _(g):
    op, d, m = g.deck('op', range(6)), g.gpr('d'), g.mem('m')
    return [op, d] + m, '%s %s, %s' % (ALU[op], GPR64[d], mem_text(m, 'qword'))


@form('alu_rm_32', 2)
def _(g):
    op, d, m = g.deck('op', range(6)), g.gpr('d'), g.mem('m')
    return [op, d] + m, '%s %s, %s' % (ALU[op], GPR32[d], mem_text(m, 'dword'))


@form('alu_mr', 2)
def _(g):
    op, m, s = g.deck('op', range(6)), g.mem('m'), g.gpr('s')
    return [op] + m + [s], '%s %s, %s' % (ALU[op], mem_text(m, 'qword'), GPR64[s])


@form('alu_ri', 2)
def _(g):
    op, d, imm = g.deck('op', range(6)), g.gpr('d'), imm32(g)
    return [op, d, imm], '%s %s, %d' % (ALU[op], GPR64[d], imm)


@form('alu_ri_32', 2)
def _(g):
    op, d, imm = g.deck('op', range(6)), g.gpr('d'), imm32(g)
    return [op, d, imm], '%s %s, %d' % (ALU[op], GPR32[d], imm)


@form('alu_mi', 2)
def _(g):
    op, m, imm = g.deck('op', range(6)), g.mem('m'), imm32(g)
    return [op] + m + [imm], '%s %s, %d' % (ALU[op], mem_text(m, 'qword'), imm)


@form('alu_mi_32', 2)
def _(g):
    op, m, imm = g.deck('op', range(6)), g.mem('m'), imm32(g)
    return [op] + m + [imm], '%s %s, %d' % (ALU[op], mem_text(m, 'dword'), imm)


@form('test_rr')
def _(g):
    a, b = g.gpr('a'), g.gpr('b')
    return [a, b], 'test %s, %s' % (GPR64[a], GPR64[b])


@form('test_ri_32')
def _(g):
    a = g.deck('a', range(1, 16))   # not eax: llvm-mc encodes it as A9 id (see the docstring)
    imm = imm32(g)
    return [a, imm], 'test %s, %d' % (GPR32[a], imm)


reg_form('not', 'not', GPR64)
reg_form('not_32', 'not', GPR32)


@form('not_m')
def _(g):
    m = g.mem('m')
    return m, 'not %s' % mem_text(m, 'qword')


@form('shift_ri', 2)
def _(g):
    op, r, imm = g.deck('op', sorted(SHIFT)), g.gpr('r'), g.imm(0, 63, [1, 2, 32])
    return [op, r, imm], '%s %s, %d' % (SHIFT[op], GPR64[r], imm)


@form('shift_ri_32', 2)
def _(g):
    op, r, imm = g.deck('op', sorted(SHIFT)), g.gpr('r'), g.imm(0, 31, [1, 2, 16])
    return [op, r, imm], '%s %s, %d' % (SHIFT[op], GPR32[r], imm)


@form('andn')
def _(g):
    d, a, b = g.gpr('d'), g.gpr('a'), g.gpr('b')
    return [d, a, b], 'andn %s, %s, %s' % (GPR64[d], GPR64[a], GPR64[b])


@form('andn_m')
def _(g):
    d, a, m = g.gpr('d'), g.gpr('a'), g.mem('m')
    return [d, a] + m, 'andn %s, %s, %s' % (GPR64[d], GPR64[a], mem_text(m, 'qword'))


@form('rorx')
def _(g):
    d, s, imm = g.gpr('d'), g.gpr('s'), g.imm(0, 63, [1, 32])
    return [d, s, imm], 'rorx %s, %s, %d' % (GPR64[d], GPR64[s], imm)


@form('rorx_32')
def _(g):
    d, s, imm = g.gpr('d'), g.gpr('s'), g.imm(0, 31, [2, 13, 22, 25])
    return [d, s, imm], 'rorx %s, %s, %d' % (GPR32[d], GPR32[s], imm)


@form('rorx_m')
def _(g):
    d, m, imm = g.gpr('d'), g.mem('m'), g.imm(0, 63, [1, 32])
    return [d] + m + [imm], 'rorx %s, %s, %d' % (GPR64[d], mem_text(m, 'qword'), imm)


# stack and control

reg_form('push', 'push', GPR64)
reg_form('pop', 'pop', GPR64)
reg_form('call_r', 'call', GPR64)


for _name in ('leave', 'ret', 'ud2', 'nop'):
    FORMS[_name] = ((lambda n: lambda g: ([], n))(_name), 0)


def jump_case(g, mnemonic, near_len):
    """distance of the label from the jump's first byte: <= 0 bound before it
    (short form when the rel8 fits, else rel32), > 0 bound after (rel32)"""
    if g.deck('dir', ['back', 'fwd']) == 'back':
        dist = -g.r.choice([0, 1, 2, 126, 127, 128, 129, g.r.randint(0, 300), g.r.randint(300, 60000)])
        return dist, Obj(['.L:', '.fill %d, 1, 0x90' % -dist, '%s .L' % mnemonic], -dist, 0), \
            '%s .L (.L at %d)' % (mnemonic, dist)
    dist = near_len + g.r.choice([0, 1, 121, 122, 123, g.r.randint(0, 300), g.r.randint(300, 60000)])
    fill = dist - near_len
    return dist, Obj(['{disp32} %s .L' % mnemonic, '.fill %d, 1, 0x90' % fill, '.L:'], 0, fill), \
        '{disp32} %s .L (.L at +%d)' % (mnemonic, dist)


@form('jmp')
def _(g):
    dist, obj, text = jump_case(g, 'jmp', 5)
    return [dist], text, obj


@form('jcc')
def _(g):
    c = g.deck('c', range(16))
    dist, obj, text = jump_case(g, 'j' + COND[c], 6)
    return [c, dist], text, obj


# AVX/AVX2 (VEX): xmm0..xmm15, 128 or 256 bits

@form('vmovdqu_load')
def _(g):
    l, d, m = g.vlen('l', [0, 1]), g.xmm('d'), g.mem('m')
    return [l, d] + m, 'vmovdqu %s, %s' % (vr(l, d), mem_text(m, VPTR[l]))


@form('vmovdqu_store')
def _(g):
    l, m, s = g.vlen('l', [0, 1]), g.mem('m'), g.xmm('s')
    return [l] + m + [s], 'vmovdqu %s, %s' % (mem_text(m, VPTR[l]), vr(l, s))


@form('vmovdqa_rr')
def _(g):
    l, d, s = g.vlen('l', [0, 1]), g.xmm('d'), g.xmm('s')
    return [l, d, s], 'vmovdqa %s, %s' % (vr(l, d), vr(l, s))


reg_reg_form('vmovq_xr', 'vmovq', XMM, GPR64)
reg_reg_form('vmovq_rx', 'vmovq', GPR64, XMM)
reg_mem_form('vmovq_load', 'vmovq', 'qword', XMM)
mem_reg_form('vmovq_store', 'vmovq', 'qword', XMM)


@form('vop_rrr', 2)
def _(g):
    op, l, d, a, b = g.deck('op', range(len(VOP))), g.vlen('l', [0, 1]), g.xmm('d'), g.xmm('a'), g.xmm('b')
    return [op, l, d, a, b], '%s %s, %s, %s' % (VOP[op], vr(l, d), vr(l, a), vr(l, b))


@form('vop_rrm', 2)
def _(g):
    op, l, d, a, m = g.deck('op', range(len(VOP))), g.vlen('l', [0, 1]), g.xmm('d'), g.xmm('a'), g.mem('m')
    return [op, l, d, a] + m, '%s %s, %s, %s' % (VOP[op], vr(l, d), vr(l, a), mem_text(m, VPTR[l]))


def vshift_form(name, mnemonic):
    def fn(g):
        l, d, s, imm = g.vlen('l', [0, 1]), g.xmm('d'), g.xmm('s'), g.imm(0, 255, [1, 63, 64])
        return [l, d, s, imm], '%s %s, %s, %d' % (mnemonic, vr(l, d), vr(l, s), imm)
    FORMS[name] = (fn, 1)


vshift_form('vpsllq_i', 'vpsllq')
vshift_form('vpsrlq_i', 'vpsrlq')
vshift_form('vpslld_i', 'vpslld')
vshift_form('vpsrld_i', 'vpsrld')


@form('vpermq')
def _(g):
    d, s, imm = g.xmm('d'), g.xmm('s'), g.imm(0, 255)
    return [d, s, imm], 'vpermq ymm%d, ymm%d, %d' % (d, s, imm)


@form('vpblendd')
def _(g):
    l, d, a, b, imm = g.vlen('l', [0, 1]), g.xmm('d'), g.xmm('a'), g.xmm('b'), g.imm(0, 255)
    return [l, d, a, b, imm], 'vpblendd %s, %s, %s, %d' % (vr(l, d), vr(l, a), vr(l, b), imm)


@form('vpshufd')
def _(g):
    l, d, s, imm = g.vlen('l', [0, 1]), g.xmm('d'), g.xmm('s'), g.imm(0, 255)
    return [l, d, s, imm], 'vpshufd %s, %s, %d' % (vr(l, d), vr(l, s), imm)


@form('vperm2i128')
def _(g):
    d, a, b, imm = g.xmm('d'), g.xmm('a'), g.xmm('b'), g.imm(0, 255)
    return [d, a, b, imm], 'vperm2i128 ymm%d, ymm%d, ymm%d, %d' % (d, a, b, imm)


@form('vpbroadcastq_m')
def _(g):
    l, d, m = g.vlen('l', [0, 1]), g.xmm('d'), g.mem('m')
    return [l, d] + m, 'vpbroadcastq %s, %s' % (vr(l, d), mem_text(m, 'qword'))


@form('vpbroadcastq_x')
def _(g):
    l, d, s = g.vlen('l', [0, 1]), g.xmm('d'), g.xmm('s')
    return [l, d, s], 'vpbroadcastq %s, xmm%d' % (vr(l, d), s)


FORMS['vzeroupper'] = (lambda g: ([], 'vzeroupper'), 0)


# AVX-512 (EVEX): xmm0..xmm31, 128/256/512 bits, masks; memory N = the vector length

def mask(g):
    """writemask and zeroing; zeroing needs a real mask (k1..k7)"""
    k, z = g.k('k'), g.deck('z', [0, 1])
    return k, (z if k else 0)


def evmov_load_form(name, mnemonic):
    def fn(g):
        l = g.vlen('l', [0, 1, 2])
        d, (k, z), m = g.zmm('d'), mask(g), g.mem('m', 16 << l)
        text = '%s %s%s, %s' % (mnemonic, vr(l, d), mask_text(k, z), mem_text(m, VPTR[l]))
        return [l, d, k, z] + m, EVEX + text
    FORMS[name] = (fn, 1)


def evmov_store_form(name, mnemonic):
    def fn(g):
        l = g.vlen('l', [0, 1, 2])
        m, k, s = g.mem('m', 16 << l), g.k('k'), g.zmm('s')
        text = '%s %s%s, %s' % (mnemonic, mem_text(m, VPTR[l]), mask_text(k, 0), vr(l, s))
        return [l] + m + [k, s], EVEX + text
    FORMS[name] = (fn, 1)


evmov_load_form('evmovdqu64_load', 'vmovdqu64')
evmov_store_form('evmovdqu64_store', 'vmovdqu64')
evmov_load_form('evmovdqu8_load', 'vmovdqu8')
evmov_store_form('evmovdqu8_store', 'vmovdqu8')


@form('evmovdqu64_rr')
def _(g):
    l, d, (k, z), s = g.vlen('l', [0, 1, 2]), g.zmm('d'), mask(g), g.zmm('s')
    return [l, d, k, z, s], EVEX + 'vmovdqu64 %s%s, %s' % (vr(l, d), mask_text(k, z), vr(l, s))


@form('evmovdqu16_rr')
def _(g):
    l, d, s = g.vlen('l', [0, 1, 2]), g.zmm('d'), g.zmm('s')
    return [l, d, s], EVEX + 'vmovdqu16 %s, %s' % (vr(l, d), vr(l, s))


def evop_pick(g):
    op = g.deck('op', range(9))
    l = g.vlen('l', [0, 1, 2]) if op != EVOP_PERMQ_V else g.vlen('lp', [1, 2])   # vpermq: 256/512 only
    return op, l


@form('evop_rrr', 2)
def _(g):
    op, l = evop_pick(g)
    d, (k, z), a, b = g.zmm('d'), mask(g), g.zmm('a'), g.zmm('b')
    text = '%s %s%s, %s, %s' % (EVOP[op], vr(l, d), mask_text(k, z), vr(l, a), vr(l, b))
    return [op, l, d, k, z, a, b], EVEX + text


@form('evop_rrm', 2)
def _(g):
    op, l = evop_pick(g)
    d, (k, z), a, m = g.zmm('d'), mask(g), g.zmm('a'), g.mem('m', 16 << l)
    return [op, l, d, k, z, a] + m, EVEX + '%s %s%s, %s, %s' % (
        EVOP[op], vr(l, d), mask_text(k, z), vr(l, a), mem_text(m, VPTR[l]))


@form('vpternlogq')
def _(g):
    l, d, a, b = g.vlen('l', [0, 1, 2]), g.zmm('d'), g.zmm('a'), g.zmm('b')
    imm = g.imm(0, 255, [0x96, 0xb4])
    return [l, d, a, b, imm], EVEX + 'vpternlogq %s, %s, %s, %d' % (vr(l, d), vr(l, a), vr(l, b), imm)


@form('vpternlogq_m')
def _(g):
    l = g.vlen('l', [0, 1, 2])
    d, a, m, imm = g.zmm('d'), g.zmm('a'), g.mem('m', 16 << l), g.imm(0, 255, [0x96, 0xb4])
    text = 'vpternlogq %s, %s, %s, %d' % (vr(l, d), vr(l, a), mem_text(m, VPTR[l]), imm)
    return [l, d, a] + m + [imm], EVEX + text


@form('vprolq')
def _(g):
    l, d, s, imm = g.vlen('l', [0, 1, 2]), g.zmm('d'), g.zmm('s'), g.imm(0, 63, [1, 32])
    return [l, d, s, imm], EVEX + 'vprolq %s, %s, %d' % (vr(l, d), vr(l, s), imm)


@form('evpbroadcastq_m')
def _(g):
    l, d, m = g.vlen('l', [0, 1, 2]), g.zmm('d'), g.mem('m', 8)   # one element: N = 8
    return [l, d] + m, EVEX + 'vpbroadcastq %s, %s' % (vr(l, d), mem_text(m, 'qword'))


@form('evpbroadcastq_r')
def _(g):
    l, d, s = g.vlen('l', [0, 1, 2]), g.zmm('d'), g.gpr('s')
    return [l, d, s], EVEX + 'vpbroadcastq %s, %s' % (vr(l, d), GPR64[s])


# mask registers

@form('kmovw_kr')
def _(g):
    k, r = g.k('k'), g.gpr('r')
    return [k, r], 'kmovw k%d, %s' % (k, GPR32[r])


@form('kmovw_rk')
def _(g):
    r, k = g.gpr('r'), g.k('k')
    return [r, k], 'kmovw %s, k%d' % (GPR32[r], k)


@form('kmovq_kr')
def _(g):
    k, r = g.k('k'), g.gpr('r')
    return [k, r], 'kmovq k%d, %s' % (k, GPR64[r])


def kshift_form(name):
    def fn(g):
        d, s, imm = g.k('d'), g.k('s'), g.imm(0, 255, [1, 15, 16])
        return [d, s, imm], '%s k%d, k%d, %d' % (name, d, s, imm)
    FORMS[name] = (fn, 1)


kshift_form('kshiftrw')
kshift_form('kshiftlw')


# AVX2 inserts (the AVX2 SHA-3 stub's pi gather); last, so the earlier forms'
# random operands stay as they were

@form('vpinsrq_m')
def _(g):
    d, a, m, imm = g.xmm('d'), g.xmm('a'), g.mem('m'), g.imm(0, 1)
    return [d, a] + m + [imm], 'vpinsrq xmm%d, xmm%d, %s, %d' % (d, a, mem_text(m, 'qword'), imm)


@form('vinserti128')
def _(g):
    d, a, b, imm = g.xmm('d'), g.xmm('a'), g.xmm('b'), g.imm(0, 1)
    return [d, a, b, imm], 'vinserti128 ymm%d, ymm%d, xmm%d, %d' % (d, a, b, imm)


# The SHA-1/SHA-256/SHA-512 stubs' forms: VEX vpshufb and vpalignr, the legacy SSE forms
# (SHA-NI exists only there; a mandatory 66/F3 prefix goes before REX). Last, so the
# earlier forms' random operands stay as they were.

@form('vpshufb')
def _(g):
    l, d, a, b = g.vlen('l', [0, 1]), g.xmm('d'), g.xmm('a'), g.xmm('b')
    return [l, d, a, b], 'vpshufb %s, %s, %s' % (vr(l, d), vr(l, a), vr(l, b))


@form('vpalignr')
def _(g):
    l, d, a, b, imm = g.vlen('l', [0, 1]), g.xmm('d'), g.xmm('a'), g.xmm('b'), g.imm(0, 255, [4, 8])
    return [l, d, a, b, imm], 'vpalignr %s, %s, %s, %d' % (vr(l, d), vr(l, a), vr(l, b), imm)


reg_mem_form('movdqu_load', 'movdqu', 'xmmword', XMM)
mem_reg_form('movdqu_store', 'movdqu', 'xmmword', XMM)
reg_reg_form('movdqa_rr', 'movdqa', XMM, XMM)


def sse_text(op, dst, src):
    # sha256rnds2's third operand is xmm0, implicit in the encoding, explicit in Intel syntax
    return '%s xmm%d, %s%s' % (SSEOP[op], dst, src, ', xmm0' if SSEOP[op] == 'sha256rnds2' else '')


@form('sse_rr', 3)
def _(g):
    op, d, s = g.deck('op', range(len(SSEOP))), g.xmm('d'), g.xmm('s')
    return [op, d, s], sse_text(op, d, 'xmm%d' % s)


@form('sse_rm', 3)
def _(g):
    op, d, m = g.deck('op', range(len(SSEOP))), g.xmm('d'), g.mem('m')
    return [op, d] + m, sse_text(op, d, mem_text(m, 'xmmword'))


@form('sse_rri', 2)
def _(g):
    op, d, s = g.deck('op', range(len(SSEOP_I))), g.xmm('d'), g.xmm('s')
    imm = g.imm(0, 3) if op == SSEOP_SHA1RNDS4 else g.imm(0, 255, [0x1b, 0xb1, 0xf0, 4, 8])
    return [op, d, s, imm], '%s xmm%d, xmm%d, %d' % (SSEOP_I[op], d, s, imm)


@form('pinsrd_m')
def _(g):
    d, m, imm = g.xmm('d'), g.mem('m'), g.imm(0, 3)
    return [d] + m + [imm], 'pinsrd xmm%d, %s, %d' % (d, mem_text(m, 'dword'), imm)


@form('pextrd_m')
def _(g):
    m, s, imm = g.mem('m'), g.xmm('s'), g.imm(0, 3)
    return m + [s, imm], 'pextrd %s, xmm%d, %d' % (mem_text(m, 'dword'), s, imm)


# A baseline JIT's integer forms: multiply and divide, shifts by cl, widening loads, byte
# stores, setcc/cmovcc, indirect calls and jumps. Last, so the earlier forms' random operands
# stay as they were.

GPR8 = ['al', 'cl', 'dl', 'bl', 'spl', 'bpl', 'sil', 'dil',
        'r8b', 'r9b', 'r10b', 'r11b', 'r12b', 'r13b', 'r14b', 'r15b']   # 4..7 need a REX

reg_reg_form('imul_rr', 'imul', GPR64, GPR64)
reg_mem_form('imul_rm', 'imul', 'qword', GPR64)


@form('imul_rri')
def _(g):
    d, s, imm = g.gpr('d'), g.gpr('s'), imm32(g)
    return [d, s, imm], 'imul %s, %s, %d' % (GPR64[d], GPR64[s], imm)


FORMS['cqo'] = (lambda g: ([], 'cqo'), 0)
reg_form('idiv', 'idiv', GPR64)
reg_form('neg', 'neg', GPR64)


@form('shift_rcl', 2)
def _(g):
    op, r = g.deck('op', sorted(SHIFT)), g.gpr('r')
    return [op, r], '%s %s, cl' % (SHIFT[op], GPR64[r])


@form('shift_rcl_32', 2)
def _(g):
    op, r = g.deck('op', sorted(SHIFT)), g.gpr('r')
    return [op, r], '%s %s, cl' % (SHIFT[op], GPR32[r])


reg_mem_form('movsxb_rm', 'movsx', 'byte', GPR64)
reg_mem_form('movsxd_rm', 'movsxd', 'dword', GPR64)
reg_reg_form('movsxd_rr', 'movsxd', GPR64, GPR32)
reg_mem_form('movzxb_rm_32', 'movzx', 'byte', GPR32)
mem_reg_form('mov_mr_8', 'mov', 'byte', GPR8)
reg_form('bswap', 'bswap', GPR64)
reg_form('bswap_32', 'bswap', GPR32)


@form('mov_mi')
def _(g):
    m, imm = g.mem('m'), imm32(g)
    return m + [imm], 'mov %s, %d' % (mem_text(m, 'qword'), imm)


@form('test_ri')
def _(g):
    a, imm = g.gpr('a'), imm32(g)   # rax included: A9 id, as llvm-mc
    return [a, imm], 'test %s, %d' % (GPR64[a], imm)


reg_form('jmp_r', 'jmp', GPR64)


@form('jmp_m')
def _(g):
    m = g.mem('m')
    return m, 'jmp %s' % mem_text(m, 'qword')


@form('call_m')
def _(g):
    m = g.mem('m')
    return m, 'call %s' % mem_text(m, 'qword')


@form('setcc', 2)
def _(g):
    c, r = g.deck('c', range(16)), g.gpr('r')
    return [c, r], 'set%s %s' % (COND[c], GPR8[r])


@form('cmovcc', 2)
def _(g):
    c, d, s = g.deck('c', range(16)), g.gpr('d'), g.gpr('s')
    return [c, d, s], 'cmov%s %s, %s' % (COND[c], GPR64[d], GPR64[s])


# ---- assembling ----------------------------------------------------------------

def cases(seed, per_form):
    """[(form, operands, text, Obj or None)]; weight 0: one case (no operands)"""
    g = Gen(random.Random(seed))
    out = []
    for name, (fn, weight) in FORMS.items():
        g.form = name
        n, want = 0, max(1, per_form * weight)
        while n < want:
            c = fn(g)
            if c is not None:
                out.append((name, c[0], c[1], c[2] if len(c) > 2 else None))
                n += 1
    return out


def elf_sections(data):
    """{name: bytes} of an ELF64 little-endian relocatable file"""
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    heads = [struct.unpack_from('<IIQQQQ', data, shoff + k * shentsize) for k in range(shnum)]
    strtab = heads[shstrndx][4]
    out = {}
    for name, _typ, _flags, _addr, off, size in heads:
        end = data.index(b'\0', strtab + name)
        out[data[strtab + name:end].decode()] = data[off:off + size]
    return out


def assemble(case_list):
    """the bytes of every case, in order"""
    enc = [c for c in case_list if c[3] is None]
    src = ''.join(text + '\n' for _, _, text, _ in enc)
    found = golden_gen.encodings(SHOW_ENCODING, src)
    if len(found) != len(enc):
        sys.exit('llvm-mc gave %d encodings for %d instructions' % (len(found), len(enc)))
    objs = [c for c in case_list if c[3] is not None]
    src = ''
    for k, (_, _, _, o) in enumerate(objs):
        src += '.section .text.c%d,"ax",@progbits\n' % k
        src += ''.join(line.replace('.L', '.Lc%d' % k) + '\n' for line in o.lines)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'jumps.o')
        golden_gen.run_llvm_mc(OBJECT + ['-o', path], src)
        with open(path, 'rb') as f:
            secs = elf_sections(f.read())
    if any(name.startswith('.rela') for name in secs):
        sys.exit('llvm-mc left relocations in the jump cases')
    obj_bytes = []
    for k, (_, _, _, o) in enumerate(objs):
        sec = secs['.text.c%d' % k]
        obj_bytes.append(sec[o.start:len(sec) - o.trailing])
    it_enc, it_obj = iter(found), iter(obj_bytes)
    return [next(it_obj) if c[3] is not None else next(it_enc) for c in case_list]


def write(f, case_list, encodings, header):
    f.write(header)
    for (name, ops, text, _), b in zip(case_list, encodings):
        f.write('%s\t%s\t%s\t%s\n' % (name, ' '.join(str(o) for o in ops), b.hex(' '), text))


if __name__ == '__main__':
    golden_gen.main('tests/gen_x64_goldens.py', __doc__, SEED, CASES_PER_FORM, cases, assemble, write,
                    'form<TAB>operands of the C encoder call<TAB>llvm-mc bytes<TAB>assembly (Intel syntax)',
                    'X64')
