/*
 * stubs/ergonomics.h — the rule every architecture's SHA ergonomics apply to
 * a flag the CPU may not honour (HotSpot's vm_version_<arch>.cpp writes it
 * out each time):
 *
 *   if (supported) { if (FLAG_IS_DEFAULT(flag)) FLAG_SET_DEFAULT(flag, true); }
 *   else if (flag) { warning(text); FLAG_SET_DEFAULT(flag, false); }
 *
 * Values change with FLAG_SET_DEFAULT, as HotSpot's: the origin stays (a
 * flag turned on for the CPU still prints {default}, a user's +Flag turned
 * off still prints {command line}).
 */
#ifndef MINIVM_ERGONOMICS_H
#define MINIVM_ERGONOMICS_H

#include <stdbool.h>

#include "flags.h"
#include "stubdeclarations.h"

/* The rule for a bool flag with its own warning text (UseSHA, UseBMI1Instructions ...). */
void ergo_flag(flag_id flag, bool supported, const char *unavailable);

/* The rule for a stub family's flag (UseSHA1Intrinsics ...), with the family's warning. */
void ergo_family(stub_family family, bool supported);

#endif
