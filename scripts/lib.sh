# scripts/lib.sh — shell functions shared by scripts/run and scripts/test.
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
