#!/usr/bin/env python3
"""tests/gen_a64_goldens.py — reference words for the AArch64 encoder, from llvm-mc.

For every encoder form of cpu/aarch64/assembler_aarch64.h this picks random
operands (every legal register, sp/zr where the operand allows them, immediates
over their full range with the end points forced in), writes each case as
assembly text, assembles the lot with

    llvm-mc -triple=aarch64 -mattr=+sha3 -show-encoding

and writes one line per case:

    form <TAB> operands (space-separated integers) <TAB> 0xWORD <TAB> assembly text

The operands are the arguments of the C encoder call in order (general
registers 0..30, 31 = zr, 32 = sp; see tests/test_a64_encoder.c for the call
each form makes), so the C test re-encodes exactly the same case.

Regenerate: tests/gen_a64_goldens.py > tests/data/a64_goldens.txt (the command line, its
live mode included, is tests/golden_gen.py's).
"""
import random
import sys

import golden_gen

SEED = 20240605
CASES_PER_FORM = 200
LLVM_MC = ['llvm-mc', '-triple=aarch64', '-mattr=+sha3', '-show-encoding']

ZR, SP = 31, 32
SHIFTS = ['lsl', 'lsr', 'asr', 'ror']
CONDS = ['eq', 'ne', 'hs', 'lo', 'mi', 'pl', 'vs', 'vc', 'hi', 'ls', 'ge', 'lt', 'gt', 'le', 'al', 'nv']
ARR = ['8b', '16b', '4h', '8h', '2s', '4s', '1d', '2d']
SYSREGS = {0xC000: 'midr_el1', 0xD801: 'ctr_el0', 0xD807: 'dczid_el0', 0xDE82: 'tpidr_el0',
           0xDF02: 'cntvct_el0'}


class Gen:
    """Operand pickers: uniform, with the range's end points forced in often."""

    def __init__(self, rnd):
        self.r = rnd

    def imm(self, lo, hi, step=1):
        k = self.r.random()
        if k < 0.08:
            return lo
        if k < 0.16:
            return hi
        return lo + step * self.r.randrange((hi - lo) // step + 1)

    def xz(self):   # register or zr
        return self.r.randrange(32)

    def xs(self):   # register or sp
        n = self.r.randrange(32)
        return SP if n == 31 else n

    def x(self):    # x0..x30
        return self.r.randrange(31)

    def v(self):
        return self.r.randrange(32)

    def pick(self, seq):
        return self.r.choice(seq)


def gpr(n, w=1):
    p = 'x' if w else 'w'
    if n == ZR:
        return p + 'zr'
    if n == SP:
        return 'sp' if w else 'wsp'
    return '%s%d' % (p, n)


def sh_text(sh, amount):
    return ', %s #%d' % (SHIFTS[sh], amount)


# ---- forms: name -> function(g) returning (operands, text) or None to re-draw ----

FORMS = {}


def form(name):
    def deco(fn):
        FORMS[name] = fn
        return fn
    return deco


def pair_form(name, mnemonic, fp, load, mode, scale=8):
    """fp: None for x registers, else the FP/SIMD register letter ('d', 'q')."""
    def fn(g):
        rt, rt2 = (g.v(), g.v()) if fp else (g.xz(), g.xz())
        rn, imm = g.xs(), g.imm(-64 * scale, 63 * scale, scale)
        if load and rt == rt2:
            return None
        if not fp and mode != 'off' and rn in (rt, rt2):
            return None
        r = (lambda n: '%s%d' % (fp, n)) if fp else gpr
        addr = {'off': '[%s, #%d]', 'pre': '[%s, #%d]!', 'post': '[%s], #%d'}[mode] % (gpr(rn), imm)
        return [rt, rt2, rn, imm], '%s %s, %s, %s' % (mnemonic, r(rt), r(rt2), addr)
    FORMS[name] = fn


def ldst_form(name, mnemonic, fp, mode, scale=8):
    """fp: None for x registers, else the FP/SIMD register letter ('d', 's', 'q')."""
    def fn(g):
        rt = g.v() if fp else g.xz()
        rn = g.xs()
        if mode == 'uimm':
            imm = g.imm(0, 4095 * scale, scale)
        else:
            imm = g.imm(-256, 255)
            if not fp and rt == rn:
                return None
        r = ('%s%d' % (fp, rt)) if fp else gpr(rt)
        addr = {'uimm': '[%s, #%d]', 'pre': '[%s, #%d]!', 'post': '[%s], #%d'}[mode] % (gpr(rn), imm)
        return [rt, rn, imm], '%s %s, %s' % (mnemonic, r, addr)
    FORMS[name] = fn


for fp, (ld, st) in ((None, ('ldp', 'stp')), ('d', ('ldpd', 'stpd'))):
    for mode, suffix in (('off', ''), ('pre', '_pre'), ('post', '_post')):
        pair_form(ld + suffix, 'ldp', fp, True, mode)
        pair_form(st + suffix, 'stp', fp, False, mode)
for fp, (ld, st) in ((None, ('ldr', 'str')), ('d', ('ldrd', 'strd'))):
    for mode, suffix in (('uimm', ''), ('pre', '_pre'), ('post', '_post')):
        ldst_form(ld + suffix, 'ldr', fp, mode)
        ldst_form(st + suffix, 'str', fp, mode)


def addsub_imm_form(name, mnemonic, rd_sp):
    def fn(g):
        w = g.pick([0, 1])
        rd = g.xs() if rd_sp else g.xz()
        rn, imm, lsl12 = g.xs(), g.imm(0, 4095), g.pick([0, 1])
        text = '%s %s, %s, #%d%s' % (mnemonic, gpr(rd, w), gpr(rn, w), imm, ', lsl #12' if lsl12 else '')
        return [w, rd, rn, imm, lsl12], text
    FORMS[name] = fn


addsub_imm_form('add_imm', 'add', True)
addsub_imm_form('sub_imm', 'sub', True)
addsub_imm_form('adds_imm', 'adds', False)
addsub_imm_form('subs_imm', 'subs', False)


@form('cmp_imm')
def _(g):
    w, rn, imm, lsl12 = g.pick([0, 1]), g.xs(), g.imm(0, 4095), g.pick([0, 1])
    return [w, rn, imm, lsl12], 'cmp %s, #%d%s' % (gpr(rn, w), imm, ', lsl #12' if lsl12 else '')


def shifted_form(name, mnemonic, shifts):
    def fn(g):
        w = g.pick([0, 1])
        rd, rn, rm = g.xz(), g.xz(), g.xz()
        sh, amount = g.pick(shifts), g.imm(0, 63 if w else 31)
        text = '%s %s, %s, %s%s' % (mnemonic, gpr(rd, w), gpr(rn, w), gpr(rm, w), sh_text(sh, amount))
        return [w, rd, rn, rm, sh, amount], text
    FORMS[name] = fn


for m in ('add', 'sub', 'adds', 'subs'):
    shifted_form(m + '_reg', m, [0, 1, 2])
for m in ('and', 'bic', 'orr', 'orn', 'eor', 'eon', 'ands'):
    shifted_form(m + '_reg', m, [0, 1, 2, 3])


@form('cmp_reg')
def _(g):
    w = g.pick([0, 1])
    rn, rm, sh, amount = g.xz(), g.xz(), g.pick([0, 1, 2]), g.imm(0, 63 if w else 31)
    return [w, rn, rm, sh, amount], 'cmp %s, %s%s' % (gpr(rn, w), gpr(rm, w), sh_text(sh, amount))


@form('mov_reg')
def _(g):
    w, rd, rm = g.pick([0, 1]), g.xz(), g.xz()
    return [w, rd, rm], 'mov %s, %s' % (gpr(rd, w), gpr(rm, w))


@form('extr')
def _(g):
    rd, rn, rm, lsb = g.xz(), g.xz(), g.xz(), g.imm(0, 63)
    return [rd, rn, rm, lsb], 'extr %s, %s, %s, #%d' % (gpr(rd), gpr(rn), gpr(rm), lsb)


@form('extr_w')
def _(g):
    rd, rn, rm, lsb = g.xz(), g.xz(), g.xz(), g.imm(0, 31)
    return [rd, rn, rm, lsb], 'extr %s, %s, %s, #%d' % (gpr(rd, 0), gpr(rn, 0), gpr(rm, 0), lsb)


@form('ubfm')
def _(g):
    w = g.pick([0, 1])
    hi = 63 if w else 31
    rd, rn, immr, imms = g.xz(), g.xz(), g.imm(0, hi), g.imm(0, hi)
    return [w, rd, rn, immr, imms], 'ubfm %s, %s, #%d, #%d' % (gpr(rd, w), gpr(rn, w), immr, imms)


def movw_form(name):
    def fn(g):
        w = g.pick([0, 1])
        rd, imm, hw = g.xz(), g.imm(0, 65535), g.imm(0, 3 if w else 1)
        return [w, rd, imm, hw], '%s %s, #%d, lsl #%d' % (name, gpr(rd, w), imm, 16 * hw)
    FORMS[name] = fn


for m in ('movn', 'movz', 'movk'):
    movw_form(m)


@form('mrs')
def _(g):
    rt, sr = g.xz(), g.pick(sorted(SYSREGS))
    return [rt, sr], 'mrs %s, %s' % (gpr(rt), SYSREGS[sr])


@form('b_off')
def _(g):
    off = g.imm(-(1 << 27), (1 << 27) - 4, 4)
    return [off], 'b #%d' % off


@form('b_cond_off')
def _(g):
    c, off = g.r.randrange(16), g.imm(-(1 << 20), (1 << 20) - 4, 4)
    return [c, off], 'b.%s #%d' % (CONDS[c], off)


def cb_form(name):
    def fn(g):
        w, rt, off = g.pick([0, 1]), g.xz(), g.imm(-(1 << 20), (1 << 20) - 4, 4)
        return [w, rt, off], '%s %s, #%d' % (name, gpr(rt, w), off)
    FORMS[name + '_off'] = fn


def tb_form(name):
    def fn(g):
        rt, bit, off = g.xz(), g.imm(0, 63), g.imm(-(1 << 15), (1 << 15) - 4, 4)
        return [rt, bit, off], '%s %s, #%d, #%d' % (name, gpr(rt, 1 if bit >= 32 else 0), bit, off)
    FORMS[name + '_off'] = fn


for m in ('cbz', 'cbnz'):
    cb_form(m)
for m in ('tbz', 'tbnz'):
    tb_form(m)


@form('ret')
def _(g):
    rn = g.xz()
    return [rn], 'ret %s' % gpr(rn)



def vlist(n, vt, t):
    return '{%s}' % ', '.join('v%d.%s' % ((vt + k) % 32, ARR[t]) for k in range(n))


def post_index(g, mode, ops, text, size):
    """a load/store's case with its post-index operand, if mode has one: 'post' the transfer
    size (#size), 'post_reg' a register x0..x30"""
    if mode == 'post':
        return ops + [size], text + ', #%d' % size
    if mode == 'post_reg':
        rm = g.x()
        return ops + [rm], text + ', %s' % gpr(rm)
    return ops, text


def ld1_form(name, mnemonic, mode):
    def fn(g):
        n, vt, t, rn = g.imm(1, 4), g.v(), g.r.randrange(8), g.xs()
        text = '%s %s, [%s]' % (mnemonic, vlist(n, vt, t), gpr(rn))
        return post_index(g, mode, [n, vt, t, rn], text, n * (16 if t & 1 else 8))
    FORMS[name] = fn


for m in ('ld1', 'st1'):
    ld1_form(m, m, 'none')
    ld1_form(m + '_post', m, 'post')
    ld1_form(m + '_post_reg', m, 'post_reg')


def ld1r_form(name, mode):
    def fn(g):
        vt, t, rn = g.v(), g.r.randrange(8), g.xs()
        return post_index(g, mode, [vt, t, rn], 'ld1r {v%d.%s}, [%s]' % (vt, ARR[t], gpr(rn)), 1 << (t >> 1))
    FORMS[name] = fn


ld1r_form('ld1r', 'none')
ld1r_form('ld1r_post', 'post')
ld1r_form('ld1r_post_reg', 'post_reg')


def vbit_form(name, mnemonic):
    def fn(g):
        t, vd, vn, vm = g.pick([0, 1]), g.v(), g.v(), g.v()
        a = ARR[t]
        return [t, vd, vn, vm], '%s v%d.%s, v%d.%s, v%d.%s' % (mnemonic, vd, a, vn, a, vm, a)
    FORMS[name] = fn


for m in ('and', 'bic', 'orr', 'eor'):
    vbit_form(m + '_v', m)


@form('mov_v')
def _(g):
    t, vd, vn = g.pick([0, 1]), g.v(), g.v()
    return [t, vd, vn], 'mov v%d.%s, v%d.%s' % (vd, ARR[t], vn, ARR[t])


def sha3_4_form(name):
    def fn(g):
        r = [g.v() for _ in range(4)]
        return r, '%s %s' % (name, ', '.join('v%d.16b' % n for n in r))
    FORMS[name] = fn


sha3_4_form('eor3')
sha3_4_form('bcax')


@form('rax1')
def _(g):
    r = [g.v() for _ in range(3)]
    return r, 'rax1 %s' % ', '.join('v%d.2d' % n for n in r)


@form('xar')
def _(g):
    r, imm = [g.v() for _ in range(3)], g.imm(0, 63)
    return r + [imm], 'xar %s, #%d' % (', '.join('v%d.2d' % n for n in r), imm)


@form('fmov_dx')
def _(g):
    dd, xn = g.v(), g.xz()
    return [dd, xn], 'fmov d%d, %s' % (dd, gpr(xn))


@form('fmov_xd')
def _(g):
    xd, dn = g.xz(), g.v()
    return [xd, dn], 'fmov %s, d%d' % (gpr(xd), dn)


@form('fsub_d')
def _(g):
    r = [g.v() for _ in range(3)]
    return r, 'fsub d%d, d%d, d%d' % tuple(r)


@form('fcmp_d')
def _(g):
    r = [g.v() for _ in range(2)]
    return r, 'fcmp d%d, d%d' % tuple(r)


@form('fcmp_d0')
def _(g):
    dn = g.v()
    return [dn], 'fcmp d%d, #0.0' % dn


# ---- the forms of the SHA-1/SHA-2 stubs (after the others, so that adding them left
# the older forms' random cases as they were) ----

pair_form('ldpq', 'ldp', 'q', True, 'off', 16)
pair_form('stpq', 'stp', 'q', False, 'off', 16)
for fp, scale in (('s', 4), ('q', 16)):
    ldst_form('ldr' + fp, 'ldr', fp, 'uimm', scale)
    ldst_form('str' + fp, 'str', fp, 'uimm', scale)


@form('ld4r')
def _(g):
    vt, t, rn = g.v(), g.r.randrange(8), g.xs()
    return [vt, t, rn], 'ld4r %s, [%s]' % (vlist(4, vt, t), gpr(rn))


@form('add_v')
def _(g):
    t, vd, vn, vm = g.pick([0, 1, 2, 3, 4, 5, 7]), g.v(), g.v(), g.v()   # not 1d
    a = ARR[t]
    return [t, vd, vn, vm], 'add v%d.%s, v%d.%s, v%d.%s' % (vd, a, vn, a, vm, a)


def vmisc_form(name, arrangements):
    def fn(g):
        t, vd, vn = g.pick(arrangements), g.v(), g.v()
        return [t, vd, vn], '%s v%d.%s, v%d.%s' % (name, vd, ARR[t], vn, ARR[t])
    FORMS[name] = fn


vmisc_form('rev64', [0, 1, 2, 3, 4, 5])
vmisc_form('rev32', [0, 1, 2, 3])


@form('ext')
def _(g):
    t, vd, vn, vm = g.pick([0, 1]), g.v(), g.v(), g.v()
    index, a = g.imm(0, 15 if t else 7), ARR[t]
    return [t, vd, vn, vm, index], 'ext v%d.%s, v%d.%s, v%d.%s, #%d' % (vd, a, vn, a, vm, a, index)


def crypto_form(name, *regs):
    """regs: each operand's text, 'q', 's' (scalar) or an arrangement ('4s', '2d')."""
    def fn(g):
        r = [g.v() for _ in regs]
        ops = ['%s%d' % (k, n) if k in ('q', 's') else 'v%d.%s' % (n, k) for k, n in zip(regs, r)]
        return r, '%s %s' % (name, ', '.join(ops))
    FORMS[name] = fn


for m in ('sha1c', 'sha1p', 'sha1m'):
    crypto_form(m, 'q', 's', '4s')
crypto_form('sha1su0', '4s', '4s', '4s')
crypto_form('sha1h', 's', 's')
crypto_form('sha1su1', '4s', '4s')
crypto_form('sha256h', 'q', 'q', '4s')
crypto_form('sha256h2', 'q', 'q', '4s')
crypto_form('sha256su0', '4s', '4s')
crypto_form('sha256su1', '4s', '4s', '4s')
crypto_form('sha512h', 'q', 'q', '2d')
crypto_form('sha512h2', 'q', 'q', '2d')
crypto_form('sha512su0', '2d', '2d')
crypto_form('sha512su1', '2d', '2d', '2d')


# ---- assembling ----------------------------------------------------------------

# ---- the compiler tier's forms (issue 34), last: the earlier forms keep their cases ----

for m in ('br', 'blr'):
    def _br(g, m=m):
        rn = g.xz()
        return [rn], '%s %s' % (m, gpr(rn))
    FORMS[m] = _br


def sized_ldst_form(name, mnemonic, w, scale):
    """unsigned offset; w: the transfer register's width (0: w, 1: x)"""
    def fn(g):
        rt, rn, imm = g.xz(), g.xs(), g.imm(0, 4095 * scale, scale)
        return [rt, rn, imm], '%s %s, [%s, #%d]' % (mnemonic, gpr(rt, w), gpr(rn), imm)
    FORMS[name] = fn


def reg_ldst_form(name, mnemonic, w, size_log2):
    def fn(g):
        rt, rn, rm, scaled = g.xz(), g.xs(), g.xz(), g.pick([0, 1])
        tail = ', lsl #%d' % size_log2 if scaled else ''
        return [rt, rn, rm, scaled], '%s %s, [%s, %s%s]' % (mnemonic, gpr(rt, w), gpr(rn), gpr(rm), tail)
    FORMS[name + '_reg'] = fn


for name, mnemonic, w, lg in (('ldrw', 'ldr', 0, 2), ('strw', 'str', 0, 2), ('ldrsw', 'ldrsw', 1, 2),
                              ('ldrb', 'ldrb', 0, 0), ('strb', 'strb', 0, 0), ('ldrsb', 'ldrsb', 1, 0)):
    sized_ldst_form(name, mnemonic, w, 1 << lg)
    reg_ldst_form(name, mnemonic, w, lg)
reg_ldst_form('ldr', 'ldr', 1, 3)
reg_ldst_form('str', 'str', 1, 3)


@form('sbfm')
def _(g):
    w = g.pick([0, 1])
    hi = 63 if w else 31
    rd, rn, immr, imms = g.xz(), g.xz(), g.imm(0, hi), g.imm(0, hi)
    return [w, rd, rn, immr, imms], 'sbfm %s, %s, #%d, #%d' % (gpr(rd, w), gpr(rn, w), immr, imms)


for m in ('udiv', 'sdiv', 'lslv', 'lsrv', 'asrv', 'rorv'):
    def _dp2(g, m=m):
        w, rd, rn, rm = g.pick([0, 1]), g.xz(), g.xz(), g.xz()
        return [w, rd, rn, rm], '%s %s, %s, %s' % (m, gpr(rd, w), gpr(rn, w), gpr(rm, w))
    FORMS[m] = _dp2

for m in ('madd', 'msub'):
    def _dp3(g, m=m):
        w, rd, rn, rm, ra = g.pick([0, 1]), g.xz(), g.xz(), g.xz(), g.xz()
        return [w, rd, rn, rm, ra], '%s %s, %s, %s, %s' % (m, gpr(rd, w), gpr(rn, w), gpr(rm, w), gpr(ra, w))
    FORMS[m] = _dp3


@form('mul')
def _(g):
    w, rd, rn, rm = g.pick([0, 1]), g.xz(), g.xz(), g.xz()
    return [w, rd, rn, rm], 'mul %s, %s, %s' % (gpr(rd, w), gpr(rn, w), gpr(rm, w))


@form('rev')
def _(g):
    w, rd, rn = g.pick([0, 1]), g.xz(), g.xz()
    return [w, rd, rn], 'rev %s, %s' % (gpr(rd, w), gpr(rn, w))


for m in ('csel', 'csinc', 'csinv', 'csneg'):
    def _cs(g, m=m):
        w, rd, rn, rm, c = g.pick([0, 1]), g.xz(), g.xz(), g.xz(), g.r.randrange(16)
        return [w, rd, rn, rm, c], '%s %s, %s, %s, %s' % (m, gpr(rd, w), gpr(rn, w), gpr(rm, w), CONDS[c])
    FORMS[m] = _cs


@form('cset')
def _(g):
    w, rd, c = g.pick([0, 1]), g.xz(), g.r.randrange(14)
    return [w, rd, c], 'cset %s, %s' % (gpr(rd, w), CONDS[c])


def cases(seed, per_form):
    g = Gen(random.Random(seed))
    out = []
    for name, fn in FORMS.items():
        n = 0
        while n < per_form:
            c = fn(g)
            if c is not None:
                out.append((name, c[0], c[1]))
                n += 1
    return out


def assemble(case_list):
    src = ''.join(text + '\n' for _, _, text in case_list)
    words = [int.from_bytes(b, 'little') for b in golden_gen.encodings(LLVM_MC, src)]
    if len(words) != len(case_list):
        sys.exit('llvm-mc gave %d encodings for %d instructions' % (len(words), len(case_list)))
    return words


def write(f, case_list, words, header):
    f.write(header)
    for (name, ops, text), w in zip(case_list, words):
        f.write('%s\t%s\t0x%08x\t%s\n' % (name, ' '.join(str(o) for o in ops), w, text))


def lane_d_form(name, mnem, post):
    def fn(g):
        n, vt, index, rn = 1 + g.r.randrange(4), g.v(), g.r.randrange(2), g.xs()
        regs = ', '.join('v%d.d' % ((vt + k) % 32) for k in range(n))
        ops, text = [n, vt, index, rn], '%s%d {%s}[%d], [%s]' % (mnem, n, regs, index, gpr(rn))
        if post:
            ops, text = ops + [8 * n], text + ', #%d' % (8 * n)
        return ops, text
    FORMS[name] = fn


for m in ('ld', 'st'):
    lane_d_form(m + 'n_lane_d', m, False)
    lane_d_form(m + 'n_lane_d_post', m, True)


@form('adr_off')
def _(g):
    rd, off = g.xz(), g.imm(-(1 << 20), (1 << 20) - 1)
    return [rd, off], 'adr %s, #%d' % (gpr(rd), off)



@form('ldr_lit_off')
def _(g):
    rt, off = g.xz(), g.imm(-(1 << 20), (1 << 20) - 4, 4)
    return [rt, off], 'ldr %s, #%d' % (gpr(rt), off)

if __name__ == '__main__':
    golden_gen.main('tests/gen_a64_goldens.py', __doc__, SEED, CASES_PER_FORM, cases, assemble, write,
                    'form<TAB>operands of the C encoder call<TAB>llvm-mc word<TAB>assembly', 'A64')
