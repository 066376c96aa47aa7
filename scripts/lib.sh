# scripts/lib.sh — shell functions shared by the scripts (run, test, bootstrap, oracle, ...).
# Sourced (". scripts/lib.sh") from the repository root; POSIX sh.

# mvm_build DIR [meson setup options...]
# Configure DIR with the options, or reconfigure it when it is already a
# Meson build directory (so a changed option takes effect), then compile:
# every target, or only those MVM_TARGETS names (meson compile's names).
mvm_build() {
    _dir=$1
    shift
    if [ -f "$_dir/meson-private/coredata.dat" ]; then
        meson setup --reconfigure "$@" "$_dir"
    else
        meson setup "$@" "$_dir"
    fi
    # shellcheck disable=SC2086
    meson compile -C "$_dir" ${MVM_TARGETS:-}
}

# mvm_now: seconds since the epoch, for stage timings.
mvm_now() {
    date +%s
}

# mvm_debian_mirror: the Debian mirror the machine's apt sources use for bookworm (deb822
# .sources or one-line sources.list), e.g. http://deb.debian.org/debian; fails (status 1, a
# message) when there is none. Nothing is hard-coded: a machine behind its own mirror keeps it.
mvm_debian_mirror() {
    _m=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '
        function stanza() { if (uri != "" && has && found == "") found = uri; uri = ""; has = 0 }
        /^[ \t]*#/ { next }
        /^URIs:/ { uri = $2 }
        /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") has = 1 }
        /^[ \t]*$/ { stanza() }
        END { stanza(); if (found != "") print found }')
    if [ -z "$_m" ]; then
        _m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
            awk '$1 == "deb" { u = $2; s = $3; if ($2 ~ /^\[/) { for (i = 2; i <= NF && $i !~ /\]$/; i++); u = $(i + 1); s = $(i + 2) }
                               if (s == "bookworm") { print u; exit } }')
    fi
    if [ -z "$_m" ]; then
        echo "no Debian mirror for bookworm in /etc/apt/sources.list(.d)" >&2
        return 1
    fi
    echo "${_m%/}"
}

# mvm_hotspot_summary TESTLOG...: the differential suite's total over the CPUs whose
# "hotspot: ARCH CPU: N of M combinations identical to HotSpot 25 (D documented departures)"
# lines the Meson test logs hold (tests/test_hotspot.c), as one line; then a line for each
# documented departure none of those CPUs is one of, and status 1 with a line for each that
# took no combination on the CPUs it names (its row in docs/flags.md is dead: fix or remove it).
# The first log's "hotspot library: ..." lines (tests/test_hotspot_library.c, the host's run,
# against the live HotSpot 25) follow the total.
mvm_hotspot_summary() {
    _library=$(grep -h '^hotspot library: ' "$1" 2>/dev/null || true)
    mvm_hotspot_total "$@" || { [ -z "$_library" ] || echo "$_library"; return 1; }
    [ -z "$_library" ] || echo "$_library"
}

mvm_hotspot_total() {
    grep -h '^hotspot: ' "$@" 2>/dev/null | awk '
        / combinations identical to HotSpot 25 / {
            n += $(NF - 10); m += $(NF - 8); d += substr($(NF - 2), 2); k++ }
        /^hotspot: departures applied:/ {
            sub(/^hotspot: departures applied: */, "")
            c = split($0, part, ", ")
            for (i = 1; i <= c; i++) {
                split(part[i], w, " ")
                if (w[1] == "") continue
                named[w[1]] = 1
                if (w[2] != "-") { seen[w[1]] = 1; used[w[1]] += w[2] } } }
        END {
            printf "hotspot: %d of %d combinations identical to HotSpot 25 on %d CPUs (%d documented departures)\n",
                   n, m, k, d
            bad = 0
            for (id in named)
                if (!(id in seen))
                    printf "hotspot: departure %s: none of these CPUs is one its row names (not exercised here)\n", id
                else if (used[id] == 0) {
                    printf "hotspot: departure %s took no combination on the CPUs it names: its row in docs/flags.md is dead\n", id
                    bad = 1 }
            exit bad }'
}
