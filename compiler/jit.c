/*
 * compiler/jit.c — the compiler tier's shared part (jit.h): a VM's code cache and
 * trampoline, compiling a method through the host's templates (jit_arch.h), and what
 * PrintCompilation and PrintAssembly print. Nothing here names an architecture.
 */
#include "jit.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codecache.h"
#include "compiler.h"
#include "disassembler.h"
#include "flags.h" /* vm_warning */
#include "jit_arch.h"

/* Every architecture's templates are built on every host, so code can be compiled and printed
   anywhere (-XX:EmulateCPU's what-if mode); the host's, when it has some, also run. */
extern const jit_arch x64_jit_arch, a64_jit_arch;
static const jit_arch *const all_archs[] = {&x64_jit_arch, &a64_jit_arch};
#ifdef MVM_JIT_ARCH
static const jit_arch *const host_arch = &MVM_JIT_ARCH;
#else
static const jit_arch *const host_arch = NULL;
#endif

/* The reserved code cache (PROT_NONE until used: HotSpot reserves ReservedCodeCacheSize) */
#define JIT_CODE_CACHE_BYTES ((size_t)256 << 20)

typedef struct jit {
    jit_ctx ctx;            /* the trampoline's: r14 on x86-64 */
    codecache cc;
    jit_options opt;
    const jit_arch *arch;
    jit_stats stats;
    uint32_t next_id;       /* PrintCompilation's compile ids, from 1 */
    struct stub_disasm *disasm; /* PrintAssembly's, opened at its first use */
    bool disasm_tried;
    bool what_if;           /* another architecture's templates: compiled and printed, never run */
} jit;

static const vm_jit_hooks hooks;

bool jit_available(void) { return host_arch != NULL; }
const char *jit_arch_name(void) { return host_arch ? host_arch->name : NULL; }

static const jit_arch *arch_named(const char *name)
{
    for (size_t i = 0; i < sizeof all_archs / sizeof all_archs[0]; i++)
        if (strcmp(all_archs[i]->name, name) == 0)
            return all_archs[i];
    return NULL;
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static FILE *out_of(const jit *j) { return j->opt.out ? j->opt.out : stdout; }

/* "SHA3.keccak" as HotSpot names a method: "SHA3::keccak" */
static void print_name(FILE *f, const vm_method *m) { fprintf(f, "%s::%s", m->module->name, m->name); }

static uint32_t code_bytes(const vm_method *m) { return m->ncode * 4u; }

/* CompileTask::print_impl's line: time, id, the five attribute characters, the level when tiered */
static void print_task(const jit *j, uint32_t id, const vm_method *m)
{
    FILE *f = out_of(j);
    fprintf(f, "%" PRIu64 " %4u %c%c%c%c%c ", (uint64_t)((now_ns() - j->opt.start_ns) / 1e6), id, ' ', ' ', ' ',
            ' ', (m->flags & VM_METHOD_NATIVE) ? 'n' : ' ');
    if (j->opt.tiered)
        fprintf(f, "%d ", JIT_LEVEL);
    fputs("      ", f);
    print_name(f, m);
    fprintf(f, " (%u bytes)\n", code_bytes(m));
}

/* a word as the assembler writes it, registers by name, the program's names for methods, statics
   and records: "add    i, i, 1", "call   v, T.mid", "ble    i, n, -> 4" (a jump: the target word) */
static void word_text(const vm_program *p, const vm_method *m, uint32_t k, char *buf, size_t len)
{
    uint32_t w = m->code[k], f[4];
    const vm_opinfo *oi = &vm_opinfo_table[GET_OP(w)];
    int n = vm_operand_fields(w, f), at = snprintf(buf, len, "%-6s ", oi->mnemonic);
    for (int i = 0; i < n && oi->kind[i] != K__ && at > 0 && (size_t)at < len; i++) {
        const char *sep = i ? ", " : "";
        size_t room = len - (size_t)at;
        if (oi->format == isJ)
            at += snprintf(buf + at, room, "%s-> %" PRId64, sep, (int64_t)k + 1 + (int32_t)f[i]);
        else if (oi->kind[i] >= K_RI && oi->kind[i] <= K_RWIN)
            at += snprintf(buf + at, room, "%s%s", sep, m->regnames[f[i]]);
        else if (oi->format == iAsBx && i == 1)
            at += snprintf(buf + at, room, "%s%d", sep, GET_sBx(w));
        else if (oi->kind[i] == K_S8)
            at += snprintf(buf + at, room, "%s%d", sep, (int)(int8_t)(uint8_t)f[i]);
        else if (oi->kind[i] == K_METH && f[i] < p->nmethods)
            at += snprintf(buf + at, room, "%s%s", sep, p->methods[f[i]]->qname);
        else if (oi->kind[i] == K_STATIC && f[i] < p->nstatics)
            at += snprintf(buf + at, room, "%s%s", sep, p->statics[f[i]].qname);
        else if (oi->kind[i] == K_TYPE && f[i] < p->nrecords)
            at += snprintf(buf + at, room, "%s%s", sep, p->records[f[i]].qname);
        else if (oi->kind[i] == K_K && f[i] < p->nk)
            at += snprintf(buf + at, room, "%s%" PRId64, sep, p->k[f[i]]);
        else
            at += snprintf(buf + at, room, "%s%u", sep, f[i]);
    }
    /* a conditional's target is its JMP's, the next word (which has no code of its own) */
    if ((oi->flags & VM_OPF_COND) && k + 1 < m->ncode && at > 0 && (size_t)at < len)
        snprintf(buf + at, len - (size_t)at, ", -> %" PRId64, (int64_t)k + 2 + GET_sJ(m->code[k + 1]));
}

/* PrintAssembly: the method's code, each bytecode word's machine code under it */
static void print_assembly(jit *j, const vm_program *p, const vm_method *m, uint32_t id, const stub_mark *mark, const size_t *offset_of)
{
    FILE *f = out_of(j);
    if (!j->disasm_tried) {
        char err[512];
        j->disasm_tried = true;
        j->disasm = stub_disasm_open(j->arch->format.llvm_target, j->arch->format.llvm_triple,
                                     j->arch->format.llvm_features, err, sizeof err);
    }
    size_t size = (size_t)(mark->end - mark->start);
    fprintf(f, "Compiled method (minivm) %4u %d       ", id, JIT_LEVEL);
    print_name(f, m);
    fprintf(f, " (%u bytes)\n [0x%016" PRIxPTR ", 0x%016" PRIxPTR "] = %zu\n", code_bytes(m),
            (uintptr_t)mark->start, (uintptr_t)mark->end, size);
    size_t end_of_words = size; /* the last word's code runs on into the exits */
    for (uint32_t k = 0; k < m->ncode; k++) {
        if (offset_of[k] == SIZE_MAX)
            continue;
        size_t next = end_of_words;
        for (uint32_t n = k + 1; n < m->ncode; n++)
            if (offset_of[n] != SIZE_MAX) {
                next = offset_of[n];
                break;
            }
        char text[128];
        word_text(p, m, k, text, sizeof text);
        fprintf(f, "  ;; %u: %s\n", k, text);
        codecache_print_code(mark, j->disasm, &j->arch->format, offset_of[k], next, f);
    }
    fputc('\n', f);
}

/* whether a call of declared calls an intrinsic candidate's stubs directly: declared itself, or
   for a virtual call, its single target (the templates call that one directly) */
static bool may_call_intrinsic(const vm_program *p, const vm_method *declared, bool virtual_call)
{
    const vm_method *target = virtual_call ? jit_single_target(p, declared) : NULL;
    return (declared->flags & VM_METHOD_INTRINSIC) || (target && target->flags & VM_METHOD_INTRINSIC);
}

static const void *const *compile(vm_t *vm, const vm_method *m)
{
    jit *j = vm->jit;
    FILE *f = out_of(j);
    if (j->opt.commands && compile_commands_excluded(j->opt.commands, m->module->name, m->name)) {
        j->stats.excluded++;
        if (j->opt.print_compilation && !j->opt.commands->quiet) {
            fprintf(f, "### Excluding compile: %s", (m->flags & VM_METHOD_VIRTUAL) ? "" : "static ");
            print_name(f, m);
            fputc('\n', f);
            fprintf(f, "made not compilable on level %d  ", JIT_LEVEL);
            print_name(f, m);
            fprintf(f, " (%u bytes)   excluded by CompileCommand\n", code_bytes(m));
        }
        return NULL;
    }
    if (m->flags & (VM_METHOD_NATIVE | VM_METHOD_ABSTRACT) || m->ncode == 0)
        return NULL;
    double t0 = now_ns();
    uint32_t id = ++j->next_id;
    if (j->opt.print_compilation)
        print_task(j, id, m);
    uint8_t *kinds = malloc(m->ncode);
    size_t *offset_of = malloc(m->ncode * sizeof *offset_of);
    /* the entry table, then the inline caches: one allocation, freed with the table (release) */
    const void **entry = calloc(1, m->ncode * (sizeof *entry + sizeof(jit_ic)));
    const void *const *result = NULL;
    char err[512];
    if (!kinds || !offset_of || !entry)
        goto done;
    jit_entry_points(m, kinds);
    /* the words, the entry's clearing (compiled callers' jit_entry: a store a register at most),
       and each call of an intrinsic candidate's direct stub calls */
    size_t cap = j->arch->method_bytes + (size_t)m->ncode * j->arch->word_bytes + (size_t)m->nregs * 8, size = 0;
    for (uint32_t k = 0; k < m->ncode; k++) {
        uint32_t op = GET_OP(m->code[k]);
        if ((op == OP_CALL || op == OP_CALLV || op == OP_CALLVIRT || op == OP_CALLVIRTV) &&
            may_call_intrinsic(vm->prog, vm->prog->methods[GET_Bx(m->code[k])],
                               op == OP_CALLVIRT || op == OP_CALLVIRTV))
            cap += j->arch->direct_bytes;
    }
    uint8_t *code = codecache_begin_segment(&j->cc, cap, err, sizeof err);
    if (!code) {
        vm_warning("%s is not compiled: %s", m->qname, err);
        goto done;
    }
    jit_ic *ics = (jit_ic *)(void *)(entry + m->ncode);
    bool ok = j->arch->method(code, cap, vm, m, kinds, ics, offset_of, &size, err, sizeof err);
    const stub_mark *mark = codecache_end_segment(&j->cc, m->qname, 0, ok ? size : 0, err, sizeof err);
    if (!mark) {
        vm_warning("%s is not compiled: %s", m->qname, err);
        goto done;
    }
    if (!j->what_if) {
        for (uint32_t k = 0; k < m->ncode; k++)
            if (kinds[k] && offset_of[k] != SIZE_MAX)
                entry[k] = mark->start + offset_of[k];
        vm->jitm[m->index].jit_entry = mark->start; /* the clearing prologue: offset 0 (the templates') */
    }
    j->stats.compiled++;
    j->stats.code_bytes += size;
    j->stats.bytecode_bytes += code_bytes(m);
    if (j->opt.print_assembly || (j->opt.commands && compile_commands_has(j->opt.commands, CC_PRINT,
                                                                           m->module->name, m->name)))
        print_assembly(j, vm->prog, m, id, mark, offset_of);
    if (!j->what_if) { /* what-if code is printed, never entered: the interpreter goes on */
        result = entry;
        entry = NULL;
    }
done:
    free(kinds);
    free(offset_of);
    free(entry);
    j->stats.compile_ns += now_ns() - t0;
    return result;
}

static void release(vm_t *vm)
{
    jit *j = vm->jit;
    if (!j)
        return;
    for (uint32_t i = 0; i < vm->prog->nmethods; i++)
        free((void *)vm->jitm[i].entry);
    free(vm->jitm);
    if (j->disasm)
        stub_disasm_close(j->disasm);
    codecache_release(&j->cc);
    free(j);
    vm->jit = NULL;
    vm->jitm = NULL;
    vm->jit_hooks = NULL;
}

static const vm_jit_hooks hooks = {.compile = compile, .release = release};

bool jit_attach(vm_t *vm, const jit_options *o, char *err, size_t errlen)
{
    const jit_arch *arch = o->target ? arch_named(o->target) : host_arch;
    if (!arch) {
        snprintf(err, errlen, "this build has no compiler for %s", o->target ? o->target : "this host's architecture");
        return false;
    }
    jit *j = calloc(1, sizeof *j);
    vm_jit_method *jitm = calloc(vm->prog->nmethods + 1, sizeof *jitm);
    if (!j || !jitm) {
        free(j);
        free(jitm);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    j->opt = *o;
    if (j->opt.start_ns == 0)
        j->opt.start_ns = now_ns();
    j->arch = arch;
    j->what_if = arch != host_arch;
    /* one segment per compiled method, and the trampoline's */
    int max_marks = vm->prog->nmethods + 1 > (uint32_t)INT32_MAX / 2 ? INT32_MAX / 2 : (int)vm->prog->nmethods + 1;
    if (!codecache_init_segments(&j->cc, JIT_CODE_CACHE_BYTES, max_marks, err, errlen)) {
        free(j);
        free(jitm);
        return false;
    }
    vm->jitm = jitm;
    vm->jit = j;
    vm->jit_hooks = &hooks;
    vm->compile_threshold = o->threshold;
    if (j->what_if) { /* no trampoline: nothing compiled is entered */
        vm->jit_osr = false;
        return true;
    }
    vm->jit = NULL;
    vm->jitm = NULL;
    vm->jit_hooks = NULL;
    size_t cap = 4096, size = 0, exit_offset = 0;
    uint8_t *code = codecache_begin_segment(&j->cc, cap, err, errlen);
    size_t entry = code ? j->arch->trampoline(code, cap, &exit_offset, &size, err, errlen) : SIZE_MAX;
    const stub_mark *mark =
        code ? codecache_end_segment(&j->cc, "jit_enter", entry == SIZE_MAX ? 0 : entry, entry == SIZE_MAX ? 0 : size,
                                     err, errlen)
             : NULL;
    if (!mark) {
        codecache_release(&j->cc);
        free(j);
        free(jitm);
        return false;
    }
    j->ctx = (jit_ctx){.exit = mark->start + exit_offset, .vm = vm};
    vm->jit = j;
    vm->jit_ctx = &j->ctx;
    vm->jit_enter = (vm_jit_enter_fn)(uintptr_t)mark->entry; /* object to function pointer: POSIX */
    vm->jitm = jitm;
    vm->compile_threshold = o->threshold;
    vm->jit_osr = o->osr;
    vm->jit_hooks = &hooks;
    return true;
}

bool jit_get_stats(const vm_t *vm, jit_stats *s)
{
    const jit *j = vm->jit;
    if (!j)
        return false;
    *s = j->stats;
    s->osr_entries = vm->jit_osr_entries;
    return true;
}

const char *jit_method_at(const vm_t *vm, const void *pc, size_t *offset)
{
    const jit *j = vm->jit;
    const stub_mark *m = j ? codecache_find(&j->cc, pc) : NULL;
    if (!m)
        return NULL;
    if (offset)
        *offset = (size_t)((const uint8_t *)pc - m->start);
    return m->name;
}
