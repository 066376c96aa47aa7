#!/bin/sh
# tests/check_flag_doc.sh — the 'flags_doc' test (suite 'docs'): the flag table
# section of docs/flags.md must be what tests/flag_doc prints from the flag
# tables (flags/flags_table.h).
#
# Usage: check_flag_doc.sh GENERATOR DOC
set -u
gen=$1
doc=$2
want=$(mktemp) || exit 1
have=$(mktemp) || exit 1
trap 'rm -f "$want" "$have"' EXIT
# MINIVM_WRAPPER: QEMU in cross builds (tests/meson.build); unquoted: words
# shellcheck disable=SC2086
if ! ${MINIVM_WRAPPER:-} "$gen" > "$want"; then
    echo "check_flag_doc: $gen failed" >&2
    exit 1
fi
sed -n '/^<!-- BEGIN flag table/,/^<!-- END flag table -->/p' "$doc" > "$have"
if ! diff -u "$have" "$want"; then
    echo "check_flag_doc: the flag table in $doc is stale (flags/flags_table.h changed)." >&2
    echo "Regenerate it from the source root: build/tests/flag_doc docs/flags.md" >&2
    exit 1
fi
