#!/usr/bin/env bash
# The release build of the command line as it is measured and meant to be
# installed: one program, claude-stream, with all four commands.
#
#   bash Benchmarks/cli/build.sh [swift build options]
#   (then .build/release/claude-stream)
#
# CI passes `--package-path Benchmarks`, building it as the benchmark
# package's dependency, and then `--product claude-stream-bench` (a later
# --product wins), so the benchmark reuses the library compiled here.
#
# Nothing to install beyond the Swift toolchain. On Linux the Swift runtime,
# Foundation and libstdc++ are linked into the program: as shared libraries
# the dynamic loader spent most of a start resolving their symbols
# (Benchmarks/cli/figures.py prints the start). libc, libm, libgcc_s and
# libcurl with the libraries behind it stay shared: chat's network stack
# (FoundationNetworking) needs libcurl.
#
# The linker finds both through a folder of links under .build:
# - libstdc++.a, GCC's static libstdc++, found where clang finds it (the
#   toolchain's own link lines ask for -lstdc++, and a folder searched first
#   that holds only the archive makes that the static one);
# - libcurl.so, when no development package (Debian: libcurl4-openssl-dev)
#   installed that unversioned link: FoundationNetworking's static library
#   asks for -lcurl, and the libcurl.so.4 the toolchain runs with serves.
# Elsewhere (macOS) this is a plain release build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

flags=()
if [ "$(uname -s)" = Linux ]; then
    links="$PWD/.build/link"
    mkdir -p "$links"
    before="$(find "$links" -mindepth 1 -printf "%f %l\n" | sort)"
    flags+=(--static-swift-stdlib -Xlinker -L"$links")

    archive="$(clang -print-file-name=libstdc++.a)"
    if [ -f "$archive" ]; then
        ln -sfn "$archive" "$links/libstdc++.a"
    else
        echo "build.sh: no static libstdc++ (libstdc++-dev); libstdc++ stays shared" >&2
        rm -f "$links/libstdc++.a"
    fi

    ldconfig="$(command -v ldconfig || echo /sbin/ldconfig)"
    if "$ldconfig" -p | grep -q '[[:space:]]libcurl\.so[[:space:]]'; then
        rm -f "$links/libcurl.so"
    else
        runtime="$("$ldconfig" -p | awk '$1 == "libcurl.so.4" { print $NF; exit }')"
        if [ -z "$runtime" ]; then
            echo "build.sh: libcurl.so.4 is not installed (FoundationNetworking needs it)" >&2
            exit 1
        fi
        ln -sfn "$runtime" "$links/libcurl.so"
    fi
    # SwiftPM does not see a link change what it points to: relink then.
    if [ "$(find "$links" -mindepth 1 -printf "%f %l\n" | sort)" != "$before" ]; then
        rm -f "$(swift build -c release "${flags[@]}" "$@" --show-bin-path)/claude-stream"
    fi
fi
swift build -c release "${flags[@]}" --product claude-stream "$@"
