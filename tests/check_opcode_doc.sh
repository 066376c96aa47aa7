#!/bin/sh
# tests/check_opcode_doc.sh — the 'docs' test: docs/opcodes.md must be what
# tests/opcode_doc prints from the opcode list (vm/opcodes.h).
#
# Usage: check_opcode_doc.sh GENERATOR DOC
set -u
gen=$1
doc=$2
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
# MINIVM_WRAPPER: QEMU in cross builds (tests/meson.build); unquoted: words
# shellcheck disable=SC2086
if ! ${MINIVM_WRAPPER:-} "$gen" > "$out"; then
    echo "check_opcode_doc: $gen failed" >&2
    exit 1
fi
if ! diff -u "$doc" "$out"; then
    echo "check_opcode_doc: $doc is stale (the opcode list changed)." >&2
    echo "Regenerate it from the source root: build/tests/opcode_doc > docs/opcodes.md" >&2
    exit 1
fi
