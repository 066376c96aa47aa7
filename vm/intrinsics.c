/*
 * vm/intrinsics.c — the intrinsic id table, DisableIntrinsic lists, linking
 * candidates to stubs, and the calls of linked candidates (see intrinsics.h).
 */
#include "intrinsics.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "stubroutines.h"

typedef struct intrinsic_desc {
    const char *name;     /* "_sha3_implCompress" */
    const char *qname;    /* "SHA3.implCompress0"; NULL: HotSpot's id, no method in minivm */
    const char *sig;      /* HotSpot's signature, "([BI)V" */
    const char *params;   /* parameter kinds, `this` first: R record, B byte[], L long[], I int */
    char ret;             /* V void, I int */
} intrinsic_desc;

static const intrinsic_desc intrinsic_descs[VM_INTRINSIC_COUNT] = {
    [VM_INTRINSIC_NONE] = {"_none", "", "", "", 'V'},
#define X(id, qname, sig, params, ret) [VM_INTRINSIC##id] = {#id, qname, sig, params, ret},
    VM_INTRINSICS(X)
#undef X
};

_Static_assert(VM_INTRINSIC_COUNT - 1 + STUB_FAMILY_COUNT <= VM_MAX_INTRINSIC_LINKS,
               "vm_t.intrinsics holds one link per id and one per family for the multi-block id");

const char *vm_intrinsic_name(vm_intrinsic_id id)
{
    return (unsigned)id < VM_INTRINSIC_COUNT ? intrinsic_descs[id].name : "(unknown intrinsic)";
}

vm_intrinsic_id vm_intrinsic_find_id(const char *name)
{
    for (int id = VM_INTRINSIC_NONE + 1; id < VM_INTRINSIC_COUNT; id++)
        if (strcmp(name, intrinsic_descs[id].name) == 0)
            return (vm_intrinsic_id)id;
    return VM_INTRINSIC_NONE;
}

/* ---- DisableIntrinsic lists --------------------------------------------------------------- */

/*
 * The next id of a list, as HotSpot's ControlIntrinsicIter (canonicalize
 * '\n' and ' ' to ',', then strtok on ','): *p moves past it; returns its
 * length, 0 at the end. Read in place: the flag's value is not copied.
 */
static size_t next_list_id(const char **p, const char **id)
{
    const char *s = *p;
    while (*s == ',' || *s == ' ' || *s == '\n')
        s++;
    *id = s;
    while (*s && *s != ',' && *s != ' ' && *s != '\n')
        s++;
    *p = s;
    return (size_t)(s - *id);
}

static vm_intrinsic_id find_id_n(const char *name, size_t len)
{
    for (int id = VM_INTRINSIC_NONE + 1; id < VM_INTRINSIC_COUNT; id++)
        if (strlen(intrinsic_descs[id].name) == len && memcmp(name, intrinsic_descs[id].name, len) == 0)
            return (vm_intrinsic_id)id;
    return VM_INTRINSIC_NONE;
}

int vm_intrinsic_check_list(const char *list, char *bad, size_t badlen)
{
    const char *id;
    size_t len;
    if (!list)
        return 0;
    while ((len = next_list_id(&list, &id)) != 0) {
        if (find_id_n(id, len) == VM_INTRINSIC_NONE) {
            /* HotSpot caps the name at 63 characters, "enough for all intrinsic names" */
            snprintf(bad, badlen, "%.*s", (int)(len < 63 ? len : 63), id);
            return -1;
        }
    }
    return 0;
}

int vm_intrinsic_in_list(const char *list, vm_intrinsic_id want)
{
    const char *id;
    size_t len;
    if (!list || want == VM_INTRINSIC_NONE)
        return 0;
    while ((len = next_list_id(&list, &id)) != 0)
        if (find_id_n(id, len) == want)
            return 1;
    return 0;
}

/* ---- linking -------------------------------------------------------------------------------- */

static vm_tkind kind_of(char c)
{
    switch (c) {
    case 'R': return VM_T_RECORD;
    case 'B': return VM_T_BYTES;
    case 'L': return VM_T_LONGS;
    case 'I': return VM_T_INT;
    default: return VM_T_VOID;
    }
}

/* The id whose qualified name is m's (signature not yet checked); m is the built-in library's. */
static vm_intrinsic_id id_by_name(const vm_method *m)
{
    for (int id = VM_INTRINSIC_NONE + 1; id < VM_INTRINSIC_COUNT; id++)
        if (intrinsic_descs[id].qname && strcmp(m->qname, intrinsic_descs[id].qname) == 0)
            return (vm_intrinsic_id)id;
    return VM_INTRINSIC_NONE;
}

/* "(record, byte[], int) -> void" from a desc, for messages */
static const char *format_signature(const intrinsic_desc *d, char *buf, size_t len)
{
    size_t n = 0;
    n += (size_t)snprintf(buf + n, len - n, "(");
    for (const char *k = d->params; *k && n < len; k++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", k == d->params ? "" : ", ",
                              *k == 'R' ? "record" : *k == 'B' ? "byte[]" : *k == 'L' ? "long[]" : "int");
    if (n < len)
        snprintf(buf + n, len - n, ") -> %s", d->ret == 'I' ? "int" : "void");
    return buf;
}

static int signature_matches(const vm_method *m, const intrinsic_desc *d)
{
    size_t n = strlen(d->params);
    if (m->nparams != n || m->ret.kind != kind_of(d->ret))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (m->regtypes[i].kind != kind_of(d->params[i]))
            return 0;
    return 1;
}

/* The index of field name of kind in r, or -1. */
static int find_field(const vm_record *r, const char *name, vm_tkind kind)
{
    for (uint16_t f = 0; f < r->nfields; f++)
        if (strcmp(r->fields[f].name, name) == 0)
            return r->fields[f].type.kind == kind ? f : -1;
    return -1;
}

/* The stubs of each id, with their family (stubs/stubdeclarations.h). */
static const struct {
    vm_intrinsic_id id;
    stub_family family;
    stub_id stub;
} id_stubs[] = {
#define ID_STUB(stub, family, intrinsic, ret, params) {VM_INTRINSIC##intrinsic, STUB_FAMILY_##family, STUB_ID_##stub},
    STUB_DECLARATIONS(ID_STUB)
#undef ID_STUB
};
#define NID_STUBS (sizeof id_stubs / sizeof id_stubs[0])

/* What each family's stubs read of the digest object, from the family list (stubs/stubdeclarations.h:
   HotSpot's get_state_from_digest_object on the family's class): its record in the library, the least
   length and the word size of its state array, its block sizes; and the calls of its two stubs. */
#define STUB_TAKES_BLOCK_SIZE_RATE 1
#define STUB_TAKES_BLOCK_SIZE_FIXED 0
static const struct family_facts {
    const char *holder;
    int32_t state_words, word_bytes;
    uint32_t block_sizes;
    stub_compress_fn compress;
    stub_compress_mb_fn compress_mb;
    stub_id one, multi; /* the stubs those call */
    bool takes_block_size;
} families[STUB_FAMILY_COUNT] = {
#define FAMILY_FACTS(id, flag, display, unavailable, holder, words, word_bytes, blocks, one, multi, args, ...) \
    [STUB_FAMILY_##id] = {holder,        words,                 word_bytes,      blocks,                       \
                          stub_compress_##id, stub_compress_mb_##id, STUB_ID_##one, STUB_ID_##multi,              \
                          STUB_TAKES_BLOCK_SIZE_##args},
    STUB_FAMILIES(FAMILY_FACTS)
#undef FAMILY_FACTS
};

/* The state array's kind of family f's stubs. */
static vm_tkind state_kind(stub_family f) { return families[f].word_bytes == 8 ? VM_T_LONGS : VM_T_INTS; }

/* Is bs one of family f's block sizes? */
static bool block_size_ok(stub_family f, int64_t bs)
{
    return bs > 0 && bs % 8 == 0 && bs / 8 < 32 && (families[f].block_sizes & STUB_BLOCK(bs));
}

/* Does the table have stub? Its name and variant (for messages) into *name, *variant. */
static int has_stub(const stub_routines *t, stub_id stub, const char **name, const char **variant)
{
    *name = t ? t->entry[stub].name : NULL;
    *variant = t ? t->entry[stub].variant : NULL;
    return t && t->entry[stub].fn != NULL;
}

static const char *kind_name(vm_tkind k) { return k == VM_T_LONGS ? "long[]" : k == VM_T_INTS ? "int[]" : "int"; }

/* Fill l's fields from record rec for family; 0 with why when rec lacks them. */
static int link_fields(const vm_program *p, uint16_t rec, stub_family family, vm_intrinsic_link *l, char *why,
                       size_t whylen)
{
    const vm_record *r = &p->records[rec];
    int f_state = find_field(r, "state", state_kind(family));
    int f_bs = find_field(r, "blockSize", VM_T_INT);
    if (f_state < 0 || f_bs < 0) {
        snprintf(why, whylen, "record shape mismatch: %s has no %s field %s", r->qname,
                 kind_name(f_state < 0 ? state_kind(family) : VM_T_INT), f_state < 0 ? "state" : "blockSize");
        return 0;
    }
    l->rec = rec;
    l->f_state = (uint16_t)f_state;
    l->f_block_size = (uint16_t)f_bs;
    l->family = (uint16_t)family;
    return 1;
}

/* The built-in library's record called qname, or -1 (a program's record of that name is not it). */
static int find_library_record(const vm_program *p, const char *qname)
{
    for (uint32_t r = 0; r < p->nrecords; r++)
        if (p->records[r].module->builtin && strcmp(p->records[r].qname, qname) == 0)
            return (int)r;
    return -1;
}

/* "stub sha3_implCompressMB (gpr)" appended to buf at *n */
static void add_stub_text(char *buf, size_t len, size_t *n, const char *name, const char *variant)
{
    if (*n < len)
        *n += (size_t)snprintf(buf + *n, len - *n, "%sstub %s%s%s%s", *n ? ", " : "", name ? name : "?",
                               variant ? " (" : "", variant ? variant : "", variant ? ")" : "");
}

/* Why a candidate did not link (the PrintIntrinsics line says it). */
typedef enum link_failure {
    LINK_OK,
    LINK_PROGRAM_MODULE, /* not the built-in library's */
    LINK_NO_ID,          /* no id has its name, or its kinds */
    LINK_DISABLED,       /* DisableIntrinsic */
    LINK_NO_STUB,        /* the stub table has no entry */
    LINK_SHAPE,          /* the record lacks what the stub reads (the text says which) */
    LINK_NO_RECORD,      /* the multi-block id: stubs, but none of their families' records in the program */
} link_failure;

/*
 * One candidate: append its links to vm->intrinsics and return how many
 * (the stubs they run in stubs); 0 with why not in why. The order is
 * HotSpot's: the id, DisableIntrinsic, the stub (C2 gives up when
 * StubRoutines has no entry), then the fields the stub reads (C2 gives up
 * when it cannot load them).
 */
static int link_one(vm_t *vm, const vm_method *m, vm_intrinsic_id *idp, char *why, size_t whylen, char *stubs,
                    size_t stubslen)
{
    const vm_program *p = vm->prog;
    vm_intrinsic_id id = m->module->builtin ? id_by_name(m) : VM_INTRINSIC_NONE;
    const intrinsic_desc *d = &intrinsic_descs[id];
    link_failure failure = LINK_OK;
    char shape[192] = "";
    int nlinks = 0;
    size_t sn = 0;
    if (!m->module->builtin)
        failure = LINK_PROGRAM_MODULE; /* HotSpot intrinsifies only classes of the boot loader */
    else if (id == VM_INTRINSIC_NONE || !signature_matches(m, d))
        failure = LINK_NO_ID;
    else if (vm_intrinsic_in_list(vm->opt.disable_intrinsic, id))
        failure = LINK_DISABLED;
    else
        failure = LINK_NO_STUB;
    for (size_t k = 0; failure == LINK_NO_STUB || failure == LINK_NO_RECORD || failure == LINK_SHAPE; k++) {
        const char *name, *variant;
        if (k == NID_STUBS || vm->nintrinsics == VM_MAX_INTRINSIC_LINKS)
            break; /* the second: unreachable, qualified names are unique, one link per id and family */
        if (id_stubs[k].id != id || !has_stub(vm->opt.stubs, id_stubs[k].stub, &name, &variant))
            continue;
        stub_family family = id_stubs[k].family;
        if (id == VM_INTRINSIC_double_keccak) { /* static: no record, the stub is all it needs */
            vm->intrinsics[vm->nintrinsics++] = (vm_intrinsic_link){.m = m, .id = (uint16_t)id,
                                                                    .family = (uint16_t)family};
            add_stub_text(stubs, stubslen, &sn, name, variant);
            nlinks++;
            continue;
        }
        if (failure == LINK_NO_STUB) /* a stub: what is missing now is its record, or the record's shape */
            failure = id == VM_INTRINSIC_digestBase_implCompressMB ? LINK_NO_RECORD : LINK_SHAPE;
        int rec = m->regtypes[0].rec;
        if (id == VM_INTRINSIC_digestBase_implCompressMB) {
            /* the family's library record, when the program has it (no SHA5: no SHA-512 stub) */
            rec = find_library_record(p, families[family].holder);
            if (rec < 0 || !vm_record_is_a(p->records, (uint16_t)rec, m->regtypes[0].rec))
                continue;
        }
        vm_intrinsic_link l = {.m = m, .id = (uint16_t)id};
        if (!link_fields(p, (uint16_t)rec, family, &l, shape, sizeof shape)) {
            failure = LINK_SHAPE;
            continue;
        }
        if (id == VM_INTRINSIC_digestBase_implCompressMB) {
            const vm_record *r = &p->records[rec];
            for (uint16_t s = 0; s < r->nvirtual; s++)
                if (strcmp(r->vtable[s]->name, "implCompress") == 0) {
                    l.compress = r->vtable[s];
                    l.compress_slot = s;
                }
        }
        vm->intrinsics[vm->nintrinsics++] = l;
        add_stub_text(stubs, stubslen, &sn, name, variant);
        nlinks++;
    }
    *idp = failure == LINK_PROGRAM_MODULE || failure == LINK_NO_ID ? VM_INTRINSIC_NONE : id;
    if (nlinks)
        return nlinks;
    switch (failure) {
    case LINK_PROGRAM_MODULE:
        snprintf(why, whylen, "%s is the program's module (%s), not the built-in library's: only the library's "
                 "candidates are intrinsified", m->module->name, m->module->path);
        break;
    case LINK_NO_ID:
        if (id == VM_INTRINSIC_NONE) {
            snprintf(why, whylen, "no compiler intrinsic is defined for the method");
        } else {
            char sig[96];
            snprintf(why, whylen, "no compiler intrinsic is defined for the method (%s is %s%s)", d->name,
                     d->qname, format_signature(d, sig, sizeof sig));
        }
        break;
    case LINK_DISABLED: snprintf(why, whylen, "disabled by DisableIntrinsic"); break;
    case LINK_NO_STUB: snprintf(why, whylen, "no stub on this CPU with these flags"); break;
    case LINK_SHAPE: snprintf(why, whylen, "%s", shape); break;
    case LINK_NO_RECORD: snprintf(why, whylen, "no digest record for its stubs in the program"); break;
    case LINK_OK: break;
    }
    return 0;
}

/* "SHA3::implCompress0": HotSpot's print_short_name, holder::name */
static void print_line_head(FILE *out, const vm_method *m)
{
    fprintf(out, "%s::%s (%zu bytes)   ", m->module->name, m->name, (size_t)m->ncode * sizeof *m->code);
}

void vm_intrinsics_link(vm_t *vm)
{
    const vm_program *p = vm->prog;
    FILE *out = vm->opt.intrinsics_out ? vm->opt.intrinsics_out : stdout;
    vm->nintrinsics = 0;
    memset(vm->link_cache, 0, sizeof vm->link_cache); /* the links change: forget the cache */
    vm->link_cache_next = 0;
    for (uint32_t i = 0; i < p->nmethods; i++) {
        const vm_method *m = p->methods[i];
        if (!(m->flags & VM_METHOD_INTRINSIC))
            continue;
        vm_intrinsic_id id;
        char why[256], stubs[512] = "";
        int linked = link_one(vm, m, &id, why, sizeof why, stubs, sizeof stubs);
        if (!vm->opt.print_intrinsics)
            continue;
        print_line_head(out, m);
        if (linked)
            fprintf(out, "(intrinsic) %s: %s\n", vm_intrinsic_name(id), stubs);
        else if (id == VM_INTRINSIC_NONE)
            fprintf(out, "failed to inline (intrinsic): %s\n", why);
        else
            fprintf(out, "failed to inline (intrinsic) %s: %s\n", vm_intrinsic_name(id), why);
    }
}

/* ---- calls ---------------------------------------------------------------------------------- */

/* The link of m whose record the receiver self is (or extends, without overriding its implCompress),
   or NULL. At most one per family. */
static const vm_intrinsic_link *search_link(const vm_t *vm, const vm_method *m, uint16_t rec)
{
    const vm_record *records = vm->prog->records;
    for (uint32_t i = 0; i < vm->nintrinsics; i++) {
        const vm_intrinsic_link *l = &vm->intrinsics[i];
        if (l->m == m && vm_record_is_a(records, rec, l->rec))
            return !l->compress || records[rec].vtable[l->compress_slot] == l->compress ? l : NULL;
    }
    return NULL;
}

/* The answer depends on the method and the record only, both fixed once linked: a digest's calls
   all hit the cache. */
static const vm_intrinsic_link *find_link(vm_t *vm, const vm_method *m, const vm_obj *self)
{
    if (self->kind != VM_T_RECORD)
        return NULL;
    enum { N = sizeof vm->link_cache / sizeof vm->link_cache[0] };
    for (size_t e = 0; e < N; e++)
        if (vm->link_cache[e].m == m && vm->link_cache[e].rec == self->rec)
            return vm->link_cache[e].link;
    size_t e = vm->link_cache_next++ % N; /* a miss replaces the oldest entry */
    vm->link_cache[e].link = search_link(vm, m, self->rec);
    vm->link_cache[e].m = m;
    vm->link_cache[e].rec = self->rec;
    return vm->link_cache[e].link;
}

/* SHA3Parallel.doubleKeccak(lanes0, lanes1), linked: the stub permutes both when each is a long[] of at
   least 25 lanes and they are two arrays (one array twice is two permutations of it in Java: the
   bytecode's) */
static int double_keccak_call(vm_t *vm, const vm_value *args, vm_value *result)
{
    vm_obj *a = args[0].ref, *b = args[1].ref;
    if (!a || !b || a == b || a->kind != VM_T_LONGS || b->kind != VM_T_LONGS || a->length < 25 ||
        b->length < 25)
        return 0;
    STUB_FN(vm->opt.stubs, double_keccak)(VM_LONGS(a), VM_LONGS(b));
    result->i = 1;
    return 1;
}

size_t vm_intrinsic_directs(const vm_t *vm, const vm_method *m, vm_intrinsic_direct *out, size_t max)
{
    size_t n = 0;
    const stub_routines *t = vm->opt.stubs;
    for (uint32_t i = 0; i < vm->nintrinsics && n < max && t; i++) {
        const vm_intrinsic_link *l = &vm->intrinsics[i];
        if (l->m != m || l->id == VM_INTRINSIC_double_keccak)
            continue;
        const struct family_facts *f = &families[l->family];
        bool multi = l->id == VM_INTRINSIC_digestBase_implCompressMB;
        /* the exact record: search_link's answer for it is l (its own implCompress, if any) */
        if (search_link(vm, m, l->rec) != l)
            continue;
        const void *stub = (const void *)(uintptr_t)t->entry[multi ? f->multi : f->one].fn;
        if (!stub)
            continue;
        out[n++] = (vm_intrinsic_direct){.stub = stub,
                                         .rec = l->rec,
                                         .f_state = l->f_state,
                                         .f_block_size = l->f_block_size,
                                         .state_kind = (uint8_t)state_kind((stub_family)l->family),
                                         .pass_block_size = f->takes_block_size,
                                         .multi = multi,
                                         .state_words = f->state_words,
                                         .block_sizes = f->block_sizes};
    }
    return n;
}

int vm_intrinsic_call(vm_t *vm, const vm_method *m, const vm_value *args, vm_value *result)
{
    /*
     * What the stubs may see: the verifier already guarantees the kinds, so
     * these checks cost a few compares per block. Each failure is something
     * the bytecode answers with an exception or a result of its own.
     */
    /* the candidate's id: its first link's (one id per method); only a (long[], long[]) candidate
       can be _double_keccak's, so the digests' calls skip the search */
    if (m->nparams == 2 && m->regtypes[0].kind == VM_T_LONGS)
        for (uint32_t i = 0; i < vm->nintrinsics; i++)
            if (vm->intrinsics[i].m == m) {
                if (vm->intrinsics[i].id == VM_INTRINSIC_double_keccak)
                    return double_keccak_call(vm, args, result);
                break;
            }
    const vm_obj *self = args[0].ref;
    if (!self)
        return 0;
    const vm_intrinsic_link *l = find_link(vm, m, self);
    if (!l)
        return 0;
    const stub_family family = (stub_family)l->family;
    const vm_value *fields = (const vm_value *)(const void *)self->data;
    vm_obj *st = fields[l->f_state].ref;
    int64_t bs = fields[l->f_block_size].i;
    const vm_obj *b = args[1].ref;
    int64_t ofs = args[2].i;
    /* registers of kind int hold Java ints only by convention: the bytecode is exact for any value */
    if (!st || st->kind != state_kind(family) || st->length < families[family].state_words || !b ||
        b->kind != VM_T_BYTES || ofs < 0 || ofs > INT32_MAX || !block_size_ok(family, bs))
        return 0;
    const uint8_t *bytes = (const uint8_t *)b->data;
    const stub_routines *t = vm->opt.stubs;

    if (l->id != VM_INTRINSIC_digestBase_implCompressMB) {
        if (ofs + bs > b->length)
            return 0;
        families[family].compress(t, bytes + ofs, st->data, (int32_t)bs);
        result->i = 0;
        return 1;
    }
    int64_t limit = args[3].i;
    if (limit < INT32_MIN || limit > INT32_MAX)
        return 0;
    /* the Java loop is `for (; ofs <= limit; ...)`; the stub's is do-while (at least one block) */
    if (ofs > limit) {
        result->i = ofs;
        return 1;
    }
    /* the last block starts at ofs + k * bs <= limit; it must end inside b (so ofs cannot overflow) */
    int64_t last = ofs + (limit - ofs) / bs * bs;
    if (last + bs > b->length)
        return 0;
    const uint8_t *buf = bytes + ofs;
    int32_t o = (int32_t)ofs, lim = (int32_t)limit;
    result->i = families[family].compress_mb(t, buf, st->data, (int32_t)bs, o, lim);
    return 1;
}
