#!/usr/bin/env python3
# bench/interp_profile.py — where minivm's interpreter spends its instructions or its
# time, per bytecode handler, split into the operation, operand decode and dispatch
# (docs/PERFORMANCE.md).
#
#   valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=cg.out \
#       build/minivm program.mva
#   python3 bench/interp_profile.py callgrind cg.out build/minivm
#
#   perf record -e cpu-clock -F 10000 -o perf.data build/minivm program.mva
#   perf script -i perf.data -F ip,sym,symoff > perf.txt
#   python3 bench/interp_profile.py perf perf.txt build/minivm
#
# --annotate HANDLER (repeatable; 'shared dispatch' for the shared block) also lists that
# handler instruction by instruction with its count and share.
#
# Every executed x86 instruction (callgrind: its count; perf: its samples) of the
# interpreter function (execute, or vm_call when the compiler inlined execute into it,
# as with -Ddispatch=switch) is attributed to the handler whose vm/interp.c line it
# comes from (objdump -l; inlined helpers count for the handler that inlined them).
# The dispatch part is the fetch, opcode decode and jump: the pc increment, the run of
# instructions computing each indirect jump (load of the next word, zero-extension of the
# opcode byte, table load, a switch's range check), a direct jump to a shared dispatch
# block (GCC merges identical handler tails into one), and that block. Operand decode is
# the extraction of register numbers and immediates from the instruction word (32-bit
# mov/shr/and/movzbl); the rest is the operation. Both are heuristics on the disassembly.
import collections
import os
import re
import subprocess
import sys

# operand decode: field extraction from the instruction word, all in 32-bit registers
DECODE = re.compile(r'^(mov|shr|and|movzbl|movsbl)\s+(\$0x[0-9a-f]+|%[a-d]h|%e\w+|%r\d+d|%[a-d]l|%\w+b)'
                    r',%(e\w+|r\d+d)$')
PC_INC = re.compile(r'^(add\s+\$0x4,%r\w+|lea\s+0x4\(%r\w+\),%r\w+)$')
# what may precede an indirect jump in its dispatch sequence
TAIL = re.compile(
    r'^(mov\s+(-?0x[0-9a-f]+)?\(%r\w+\),%e\w+|'      # i = *pc (a 32-bit load)
    r'movzbl %[a-d]l,%e\w+|'                         # GET_OP(i)
    r'mov\s+\(%r\w+,%r\w+,8\),%r\w+|'                # disptab[op]
    r'movslq \(%r\w+,%r\w+,4\),%r\w+|add\s+%r\w+,%r\w+|'  # a switch's relative table
    r'mov\s+%[er]\w+,%[er]\w+|'                      # register copies
    r'cmp\s+\$0x[0-9a-f]+,%\w+|ja\s.*|'               # the switch's range check
    r'add\s+\$0x4,%r\w+|lea\s+0x4\(%r\w+\),%r\w+)$')

def disassemble(binary, fname):
    """[(address, text, interp.c line or None)] of fname, with the function's start address."""
    out = subprocess.run(['objdump', '-d', '-l', '--no-show-raw-insn', binary],
                         capture_output=True, text=True, check=True).stdout
    insns, inside, src, start = [], False, None, None
    for line in out.splitlines():
        m = re.match(r'^([0-9a-f]+) <(.*)>:$', line)
        if m:
            inside = m.group(2) == fname
            if inside:
                start = int(m.group(1), 16)
            continue
        if not inside:
            continue
        m = re.match(r'^\S*/(\w+\.[ch]):(\d+)', line)
        if m:
            src = int(m.group(2)) if m.group(1) == 'interp.c' else None
            continue
        m = re.match(r'^\s+([0-9a-f]+):\s+(.*)$', line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2).strip(), src))
    return insns, start


def handler_names(interp_c):
    """vm/interp.c line -> handler name, for the lines of execute()'s loop."""
    names, cur, inside = {}, None, False
    with open(interp_c) as f:
        for n, line in enumerate(f, 1):
            if re.match(r'^static int execute', line):
                inside = True
            elif re.match(r'^int vm_call', line):
                inside = False
            if not inside:
                continue
            m = re.search(r'vmcase\((\w+)\)', line) or re.search(r'^\s*VIEW_\w+\((\w+),', line)
            if m and '#define' not in line:
                cur = m.group(1)
            m = re.match(r'^\s*(do_call|do_return|exception):', line)
            if m:
                cur = m.group(1)
            if re.match(r'^\s*for \(;;\)', line):
                cur = 'loop top'
            names[n] = cur or 'entry'
    return names


def callgrind_costs(path, fname):
    """Self Ir per instruction address of fname (needs --dump-instr=yes)."""
    costs, names, cur, addr, skip = collections.Counter(), {}, None, 0, False
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            m = re.match(r'^(c?fn)=\((\d+)\)(?: (.*))?$', line)
            if m:
                if m.group(3):
                    names[m.group(2)] = m.group(3)
                if m.group(1) == 'fn':
                    cur = names.get(m.group(2))
                continue
            if line.startswith('calls='):
                skip = True  # the next line is the call's inclusive cost
                continue
            if not line or not (line[0] in '+-*' or line.startswith('0x')):
                continue
            parts = line.split()
            a = parts[0]
            if a.startswith('0x'):
                addr = int(a, 16)
            elif a[0] in '+-':
                addr += int(a)
            if skip:
                skip = False
                continue
            if cur == fname and len(parts) >= 3:
                costs[addr] += int(parts[2])
    return costs


def perf_costs(path, fname, start):
    """Samples per instruction address of fname, from `perf script -F ip,sym,symoff`."""
    costs = collections.Counter()
    with open(path) as f:
        for line in f:
            m = re.search(r'\s(\S+)\+0x([0-9a-f]+)', line)
            if m and m.group(1) == fname:
                costs[start + int(m.group(2), 16)] += 1
    return costs


def main():
    args = sys.argv[1:]
    want = set()
    while len(args) >= 2 and args[0] == '--annotate':
        want.add(args[1])  # print this handler instruction by instruction
        args = args[2:]
    if len(args) < 3 or args[0] not in ('callgrind', 'perf'):
        sys.exit('usage: interp_profile.py [--annotate HANDLER]... callgrind|perf FILE MINIVM [vm/interp.c]')
    mode, data, binary = args[:3]
    interp_c = args[3] if len(args) > 3 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'vm', 'interp.c')
    fname, (insns, start) = 'execute', disassemble(binary, 'execute')
    if not insns:  # execute inlined into vm_call (e.g. -Ddispatch=switch)
        fname, (insns, start) = 'vm_call', disassemble(binary, 'vm_call')
    costs = callgrind_costs(data, fname) if mode == 'callgrind' else perf_costs(data, fname, start)
    names = handler_names(interp_c)

    # A short block that many handlers jump to is a shared dispatch block: GCC merges
    # the handlers' identical tails (computed goto), or the switch's loop top.
    sources = collections.Counter()
    for _, text, _ in insns:
        m = re.match(r'^jmp\s+([0-9a-f]+) <', text)
        if m:
            sources[int(m.group(1), 16)] += 1
    shared, left = set(), 0
    for addr, text, _ in insns:
        if sources[addr] >= 8:
            left = 12  # up to its first unconditional jump
        if left:
            shared.add(addr)
            left = 0 if text.startswith(('jmp', 'notrack jmp')) else left - 1

    # The dispatch part: shared blocks, pc++, jumps to a shared block, and the run of
    # TAIL instructions that ends in each indirect jump.
    is_disp = set(shared)
    for k, (addr, text, _) in enumerate(insns):
        m = re.match(r'^jmp\s+([0-9a-f]+) <', text)
        if PC_INC.match(text) or (m and int(m.group(1), 16) in shared):
            is_disp.add(addr)
        if '*' in text and text.startswith(('jmp', 'notrack jmp')):
            is_disp.add(addr)
            j = k - 1
            while j >= 0 and k - j <= 8 and TAIL.match(insns[j][1]):
                is_disp.add(insns[j][0])
                j -= 1

    total = sum(costs.get(a, 0) for a, _, _ in insns)
    work, disp, execs = collections.Counter(), collections.Counter(), collections.Counter()
    decode = collections.Counter()
    dispatches, name = 0, 'entry'
    annotate = []
    for addr, text, src in insns:
        if src in names:
            name = names[src]  # else: an inlined helper, counted for the handler around it
        hname = 'shared dispatch' if addr in shared else name
        c = costs.get(addr, 0)
        if hname in want:
            annotate.append((hname, addr, text, c))
        if not c:
            continue
        if addr in is_disp:
            disp[hname] += c
        else:
            work[hname] += c
            if DECODE.match(text):
                decode[hname] += c
        execs[hname] = max(execs[hname], c)
        if text.startswith(('jmp', 'notrack jmp')) and '*' in text:
            dispatches += c
    unit = 'instructions (Ir)' if mode == 'callgrind' else 'samples'
    tdisp = sum(disp.values())
    print('%s: %d %s in %s' % (data, total, unit, fname))
    if mode == 'callgrind' and dispatches:
        print('bytecodes dispatched (indirect jumps executed): %d; %.2f instructions per bytecode'
              % (dispatches, total / dispatches))
    tdec = sum(decode.values())
    if total:
        print('dispatch %.1f%%; handlers %.1f%%: operand decode %.1f%%, the operation %.1f%%'
              % (100 * tdisp / total, 100 * (total - tdisp) / total, 100 * tdec / total,
                 100 * (total - tdisp - tdec) / total))
    print()
    hdr = '%-15s %6s %9s %7s %9s' % ('handler', 'share', 'operation', 'decode', 'dispatch')
    if mode == 'callgrind':
        hdr += ' %12s %10s' % ('executions', 'instr/exec')
    print(hdr)
    for name, c in sorted(((n, work[n] + disp[n]) for n in set(work) | set(disp)), key=lambda x: -x[1])[:20]:
        row = '%-15s %5.1f%% %8.1f%% %6.1f%% %8.1f%%' % (
            name, 100 * c / total, 100 * (work[name] - decode[name]) / total, 100 * decode[name] / total,
            100 * disp[name] / total)
        if mode == 'callgrind':
            row += ' %12d %10.1f' % (execs[name], c / execs[name])
        print(row)
    for hname, addr, text, c in annotate:
        print('%-16s %8x %10d %5.1f%%  %s' % (hname, addr, c, 100 * c / total, text))


if __name__ == '__main__':
    main()
