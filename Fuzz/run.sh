#!/usr/bin/env bash
# Builds and runs libFuzzer targets.
#
#   Fuzz/run.sh --list              names the targets (folders Fuzz/*/Entry)
#   Fuzz/run.sh TARGET SECONDS      builds fuzz-TARGET and fuzzes it for SECONDS
#   Fuzz/run.sh all SECONDS [JOBS]  builds every target, then fuzzes each for SECONDS,
#                                   JOBS at a time (default 1; each fuzzer uses one core)
#   Fuzz/run.sh --build TARGET      builds fuzz-TARGET only (Fuzz/campaign.sh uses it)
#
# Corpora: the kept corpus Fuzz/corpus/TARGET (what campaigns found, see
# Fuzz/campaign.sh), Fuzz/TARGET/seeds and Fuzz/TARGET/regressions are read;
# new inputs go to Fuzz/.work/TARGET/corpus (git-ignored), so a short run
# never changes the kept corpus. A crash lands in Fuzz/.work/TARGET/ and the
# script exits non-zero. Fuzz/TARGET/TARGET.dict is used when present. See
# Fuzz/README.md.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scratch="$root/.build-fuzz"

targets() {
    for entry in Fuzz/*/Entry; do
        [ -d "$entry" ] && basename "$(dirname "$entry")"
    done
}

build() {
    local target="$1"
    echo "== building fuzz-$target (release, fuzzer + address sanitizer)"
    # The targets are products of the fuzz package (Fuzz/Package.swift), not of the root.
    # SwiftPM (6.3) keeps the build plan of a path dependency even when files
    # were added to it since, and then fails on names it cannot find; dropping
    # the plan makes it plan again (compiled objects are kept).
    # Two campaigns started together share the scratch folder: one's
    # `rm` of the plan could pull it from under the other's build, which
    # then failed ("unable to open release.yaml"). A lock takes them in turn.
    mkdir -p "$scratch"
    (
        if command -v flock > /dev/null; then flock 9; fi
        rm -f "$scratch/release.yaml"
        swift build -c release --package-path "$root/Fuzz" --product "fuzz-$target" \
            --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld \
            --scratch-path "$scratch"
    ) 9> "$scratch/build.lock"
}

fuzz() {
    local target="$1" seconds="$2"
    local work="$root/Fuzz/.work/$target"
    mkdir -p "$work/corpus"
    local corpora=("$work/corpus")
    [ -d "Fuzz/corpus/$target" ] && corpora+=("Fuzz/corpus/$target")
    for folder in seeds regressions; do
        [ -d "Fuzz/$target/$folder" ] && corpora+=("Fuzz/$target/$folder")
    done
    local options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$work/" -print_final_stats=1)
    [ -f "Fuzz/$target/$target.dict" ] && options+=(-dict="Fuzz/$target/$target.dict")
    echo "== fuzzing $target for ${seconds}s"
    local status=0
    SWIFT_BACKTRACE=enable=no "$scratch/release/fuzz-$target" "${corpora[@]}" "${options[@]}" || status=$?
    if [ "$status" -ne 0 ]; then
        echo "!! fuzz-$target failed (exit $status); crash inputs:" >&2
        ls -1 "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* >&2 2>/dev/null || true
        echo "!! once fixed, copy the input into Fuzz/$target/regressions/ so swift test replays it" >&2
        return "$status"
    fi
}

case "${1:-}" in
--list)
    targets
    ;;
--build)
    build "${2:?usage: Fuzz/run.sh --build TARGET}"
    ;;
all)
    seconds="${2:?usage: Fuzz/run.sh all SECONDS [JOBS]}"
    jobs="${3:-1}"
    if ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]]; then
        echo "JOBS must be a positive whole number, not '$jobs'" >&2
        exit 64
    fi
    mapfile -t all < <(targets)
    for target in "${all[@]}"; do build "$target"; done
    # A libFuzzer run is one thread: with JOBS > 1 several run at once, each
    # writing to a log of its own that is printed whole when it ends, so
    # that runs' lines never interleave.
    logs="$root/Fuzz/.work/logs"
    mkdir -p "$logs"
    failed=0
    declare -A running=()
    finish_one() {
        local status=0 pid
        wait -n -p pid "${!running[@]}" || status=$?
        cat "$logs/${running[$pid]}.log"
        unset "running[$pid]"
        [ "$status" -eq 0 ] || failed=1
    }
    for target in "${all[@]}"; do
        if [ "$jobs" -eq 1 ]; then
            fuzz "$target" "$seconds" || failed=1
            continue
        fi
        [ "${#running[@]}" -lt "$jobs" ] || finish_one
        fuzz "$target" "$seconds" >"$logs/$target.log" 2>&1 &
        running[$!]="$target"
    done
    while [ "${#running[@]}" -gt 0 ]; do finish_one; done
    exit "$failed"
    ;;
"" | -h | --help)
    sed -n '2,15p' "$0"
    exit 64
    ;;
*)
    target="$1"
    seconds="${2:?usage: Fuzz/run.sh TARGET SECONDS}"
    if [ ! -d "Fuzz/$target/Entry" ]; then
        echo "unknown target '$target'; targets: $(targets | tr '\n' ' ')" >&2
        exit 64
    fi
    build "$target"
    fuzz "$target" "$seconds"
    ;;
esac
