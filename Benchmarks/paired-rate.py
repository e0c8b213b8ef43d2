#!/usr/bin/env python3
"""Paired ratio of two builds' accumulator rates, for a noisy machine.

    python3 Benchmarks/paired-rate.py OLD_BIN NEW_BIN KIND [ROUNDS]

OLD_BIN and NEW_BIN are two builds of `claude-stream-bench`; KIND is a
`--memory-probe rate` stream (`text`, `tool`, `tool16`, `mixed`). Each
round runs `BIN --memory-probe rate KIND 16777216 3` for both builds back
to back, the order alternating from round to round, and takes the best of
each process's three runs (thread CPU time). The load of a shared host
moves both halves of a round together, so the median of the rounds'
ratios (NEW over OLD) resolves changes that the rates themselves, read
minutes apart, do not. Prints both builds' median rates, the median ratio
and its quartiles.
"""
import statistics
import subprocess
import sys


def best_rate(binary, kind):
    """The best of one process's three rate runs, in MB/s."""
    output = subprocess.run(
        [binary, "--memory-probe", "rate", kind, "16777216", "3"],
        check=True, capture_output=True, text=True).stdout
    # The probe prints the runs' rates, then "median N MB/s".
    return max(float(word) for word in output.split("median")[0].split())


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__.split("\n\n")[1])
    old, new, kind = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) == 5 else 16
    if rounds < 2:
        sys.exit("ROUNDS must be at least 2")
    old_rates, new_rates, ratios = [], [], []
    for round_index in range(rounds):
        if round_index % 2 == 0:
            a = best_rate(old, kind)
            b = best_rate(new, kind)
        else:
            b = best_rate(new, kind)
            a = best_rate(old, kind)
        old_rates.append(a)
        new_rates.append(b)
        ratios.append(b / a)
    low, _, high = statistics.quantiles(ratios, n=4)
    print(f"{kind}: old median {statistics.median(old_rates):.0f} MB/s, "
          f"new median {statistics.median(new_rates):.0f} MB/s, "
          f"paired ratio median {statistics.median(ratios):.3f} "
          f"(quartiles {low:.3f}-{high:.3f}), {rounds} rounds")


if __name__ == "__main__":
    main()
