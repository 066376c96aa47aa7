/*
 * vm/program.c — a loaded program's queries, whatever loaded it: a method by its name, a type's
 * name as the source spells it (for the loader's, the verifier's and the natives' messages), and
 * the program's end (its arena holds all of it).
 */
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "vm.h"

void vm_program_free(vm_program *p)
{
    if (!p)
        return;
    vm_arena_free(p->arena);
}

vm_method *vm_find_method(const vm_program *p, const char *qname)
{
    const char *dot = strrchr(qname, '.');
    for (uint32_t i = 0; i < p->nmethods; i++) {
        vm_method *m = p->methods[i];
        if (dot ? strcmp(m->qname, qname) == 0
                : (p->nmodules > 1 && m->module == p->modules[1] && strcmp(m->name, qname) == 0))
            return m;
    }
    return NULL;
}

const char *vm_type_name(const vm_program *p, vm_type t, char *buf, size_t len)
{
    static const char *const names[] = {"void", "int", "long", "byte[]", "int[]", "long[]", "?", "Object"};
    if (t.kind == VM_T_RECORD)
        snprintf(buf, len, "%s", p && t.rec < p->nrecords ? p->records[t.rec].qname : "record");
    else
        snprintf(buf, len, "%s", t.kind < sizeof names / sizeof names[0] ? names[t.kind] : "?");
    return buf;
}
