/*
 * stubs/ergonomics.c — see ergonomics.h.
 */
#include "ergonomics.h"

#include "stubroutines.h"

void ergo_flag(flag_id flag, bool supported, const char *unavailable)
{
    flag_value v;
    flag_value_load(flag, &v);
    if (supported) {
        if (flag_is_default(flag)) {
            v.v_bool = true;
            flag_value_store(flag, &v);
        }
    } else if (v.v_bool) {
        vm_warning("%s", unavailable);
        v.v_bool = false;
        flag_value_store(flag, &v);
    }
}

void ergo_family(stub_family family, bool supported)
{
    ergo_flag((flag_id)stub_family_descs[family].flag, supported, stub_family_descs[family].unavailable);
}
