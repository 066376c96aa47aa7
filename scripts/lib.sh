# scripts/lib.sh — shell functions shared by the scripts (run, test, bootstrap, oracle, ...).
# Sourced (". scripts/lib.sh") from the repository root; POSIX sh.

# mvm_build DIR [meson setup options...]
# Configure DIR with the options, or reconfigure it when it is already a
# Meson build directory (so a changed option takes effect), then compile.
mvm_build() {
    _dir=$1
    shift
    if [ -f "$_dir/meson-private/coredata.dat" ]; then
        meson setup --reconfigure "$@" "$_dir"
    else
        meson setup "$@" "$_dir"
    fi
    meson compile -C "$_dir"
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
        /^URIs:/ { uri = $2 }
        /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") found = uri }
        /^$/ { uri = "" }
        END { if (found) print found }')
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
# lines the Meson test logs hold (tests/test_hotspot.c), as one line.
mvm_hotspot_summary() {
    grep -h '^hotspot: .*: [0-9]* of [0-9]* combinations identical' "$@" 2>/dev/null | awk '
        { n += $(NF - 10); m += $(NF - 8); d += substr($(NF - 2), 2); k++ }
        END { printf "hotspot: %d of %d combinations identical to HotSpot 25 on %d CPUs (%d documented departures)\n",
                     n, m, k, d }'
}
