#!/usr/bin/env bash
# A fuzz campaign: one target, one process (one core), from the kept corpus.
#
#   Fuzz/campaign.sh TARGET SECONDS [RUNS]
#
# 1. builds fuzz-TARGET (Fuzz/run.sh --build) and runs a copy of the binary,
#    so a build during the campaign cannot change what is fuzzed;
# 2. fuzzes for SECONDS (or until RUNS executions, whichever comes first)
#    from the kept corpus Fuzz/corpus/TARGET, the seeds and the regressions,
#    new inputs going to Fuzz/.work/TARGET/campaign;
# 3. merges: the kept corpus becomes the smallest set of inputs, drawn from
#    the old kept corpus and the new inputs, that reaches every feature they
#    reach (libFuzzer's -merge=1 into an empty folder); inputs are at most
#    MAX_LEN bytes, and the largest go first when the folder would pass
#    MAX_CORPUS_BYTES;
# 4. appends one line to Fuzz/CAMPAIGNS.md: date, commit, target, seconds,
#    executions, coverage (edges and features) at the start and the end,
#    the kept corpus's size, and the result; then rewrites the totals there
#    (Fuzz/campaign-totals.py: executions summed over the campaigns that ran
#    on the fuzzed code as it is at HEAD).
#
# A crash, leak, timeout or out-of-memory ends the campaign: its input is
# kept in Fuzz/.work/TARGET/, the line says so, and the script exits
# non-zero. Once fixed, copy the input into Fuzz/TARGET/regressions/.
# SIGINT to the fuzzer stops a campaign early: what it found is merged,
# and the line says "stopped".
#
# AddressSanitizer runs without allocation stacks (malloc_context_size=0,
# unless ASAN_OPTIONS says otherwise): recording one at every allocation
# cost a quarter of the campaign's CPU, and a report still names the
# access and its stack; run the kept input again (Fuzz/run.sh, or the
# tests) for the allocation's.
#
# The commit is HEAD's; "+changes" follows it when the fuzzed code (Sources,
# Fuzz/FuzzProperties, the entries, the manifests) differs from HEAD.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

target="${1:?usage: Fuzz/campaign.sh TARGET SECONDS [RUNS]}"
seconds="${2:?usage: Fuzz/campaign.sh TARGET SECONDS [RUNS]}"
runs="${3:-}"
max_len="${MAX_LEN:-4096}"
max_corpus_bytes="${MAX_CORPUS_BYTES:-$((4 << 20))}"

if [ ! -d "Fuzz/$target/Entry" ]; then
    echo "unknown target '$target'; targets: $(bash Fuzz/run.sh --list | tr '\n' ' ')" >&2
    exit 64
fi

commit="$(git rev-parse --short=10 HEAD)"
if [ -n "$(git status --porcelain -- Sources Fuzz/FuzzProperties Fuzz/*/Entry Package.swift Fuzz/Package.swift)" ]; then
    commit="$commit+changes"
fi

bash Fuzz/run.sh --build "$target"

work="$root/Fuzz/.work/$target"
kept="$root/Fuzz/corpus/$target"
fresh="$work/campaign"
mkdir -p "$work" "$kept" "$fresh"
binary="$work/fuzz-$target.campaign"
cp "$root/.build-fuzz/release/fuzz-$target" "$binary"

dictionary=()
[ -f "Fuzz/$target/$target.dict" ] && dictionary=(-dict="Fuzz/$target/$target.dict")
inputs=("$fresh" "$kept")
for folder in seeds regressions; do
    [ -d "Fuzz/$target/$folder" ] && inputs+=("Fuzz/$target/$folder")
done

log="$work/campaign.log"
limits=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len="$max_len" -print_final_stats=1)
[ -n "$runs" ] && limits+=(-runs="$runs")
echo "== campaign: $target for ${seconds}s${runs:+ or $runs runs} on $commit (log: $log)"
status=0
export ASAN_OPTIONS="${ASAN_OPTIONS:-malloc_context_size=0}"
SWIFT_BACKTRACE=enable=no "$binary" "${inputs[@]}" "${limits[@]}" "${dictionary[@]}" -artifact_prefix="$work/" >"$log" 2>&1 || status=$?

# libFuzzer prints `#N INITED cov: C ft: F …` once the corpus is loaded and
# `stat::number_of_executed_units: N` at the end.
field() { grep -oE "$1: [0-9]+" <<<"$2" | head -n 1 | grep -oE '[0-9]+$' || echo "?"; }
inited="$(grep -E '^#[0-9]+[[:space:]]+INITED' "$log" | tail -n 1 || true)"
last="$(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -n 1 || true)"
executions="$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || true)"
[ -n "$executions" ] || executions="$(grep -oE '^#[0-9]+' <<<"$last" | tr -d '#' || echo "?")"
cov_start="$(field cov "$inited")" ft_start="$(field ft "$inited")"
cov_end="$(field cov "$last")" ft_end="$(field ft "$last")"

if [ "$status" -eq 0 ]; then
    result="clean"
elif [ "$status" -eq 72 ]; then
    # libFuzzer's exit code for an interrupted run (-interrupted_exitcode).
    result="clean, stopped early"
    status=0
else
    artifact="$(ls -1t "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null | head -n 1 || true)"
    result="FAILED (exit $status${artifact:+, input Fuzz/.work/$target/$(basename "$artifact")})"
fi

# The merge runs even after a failure: what was found before it is kept.
merged="$work/merged"
rm -rf "$merged"
mkdir -p "$merged"
SWIFT_BACKTRACE=enable=no "$binary" -merge=1 -max_len="$max_len" -timeout=10 -rss_limit_mb=4096 "$merged" "$kept" "$fresh" \
    >"$work/merge.log" 2>&1 || {
    echo "!! the merge failed (see $work/merge.log); the kept corpus is unchanged" >&2
    result="$result; merge failed"
    merged=""
}
if [ -n "$merged" ]; then
    # Bounded: the largest inputs go first until the folder fits.
    while [ "$(du -sb "$merged" | cut -f1)" -gt "$max_corpus_bytes" ]; do
        # sed reads the whole listing: `head` would close the pipe early,
        # and under pipefail the listing's SIGPIPE ended the script here.
        largest="$(ls -1S "$merged" | sed -n 1p)"
        [ -n "$largest" ] || break
        rm -f "$merged/$largest"
    done
    rm -rf "$kept"
    mv "$merged" "$kept"
    # Everything found is in the kept corpus now.
    rm -rf "$fresh"
fi
files="$(find "$kept" -type f | wc -l | tr -d ' ')"
bytes="$(du -sb "$kept" | cut -f1)"

ledger="$root/Fuzz/CAMPAIGNS.md"
line="| $(date -u +%Y-%m-%d) | $commit | $target | $seconds | $executions | $cov_start → $cov_end | $ft_start → $ft_end | $files / $bytes | $result |"
echo "$line" >>"$ledger"
echo "$line"
# The totals over campaigns on the same fuzzed code, above the ledger.
python3 "$root/Fuzz/campaign-totals.py" --write >/dev/null || echo "!! campaign-totals.py failed; the ledger line is written" >&2
exit "$status"
