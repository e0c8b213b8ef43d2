// Line ends (LF or CR) for the SSE parser's usual block, inlined into the
// Swift caller.
//
// The usual Messages API block is two lines, `event: …` (about 20 bytes
// after its colon) and `data: …` (100 to 150), then a blank line. One scan
// finds each line's end and sees any CR before it in the same pass, so the
// parser never runs a separate CR search ahead over the chunk: such a
// search pulls the whole chunk from memory before any parsing starts, and
// on a stream larger than the cache that wait is not hidden behind the
// parsing (a large share of the time on such a stream; see
// Benchmarks/RESULTS-HISTORY.md, SSE and AWS framing). A libc memchr finds
// one byte value only, and its call costs its entry checks and the
// registers saved around it; these functions are `static inline` in the
// header so that the compiler inlines them into the Swift caller. With
// SSE2 (part of every x86_64 CPU, so no CPU check) a window is one
// unaligned load and two compares; elsewhere a byte loop. Swift cannot
// emit pmovmskb, which turns the vector compare into an index.
//
// The first 32 bytes are read as two windows (a short line ends there),
// then 64 bytes a step, their four windows' hits ORed into one test. Every
// load is inside p[0..<n]: fewer than 64 bytes left go 16 at a time, and
// the last window is the one that ends at n, its bytes before i shifted
// out of its mask; a buffer under 16 bytes takes the byte loop.
//
// Worked example: p = `event: ping⏎data: {}⏎⏎` (22 bytes), i = 7, n = 22.
// Fewer than 32 bytes are left, and fewer than 16, so the last window
// p[6..<22] is read: its mask has bits 5, 14 and 15 (p[11], p[20], p[21]);
// shifted right by 16 - (22 - 7) = 1 it is bits 4, 13 and 14, and the
// first gives 7 + 4 = 11, the LF after `ping`.
#ifndef SCAN_ACCELERATION_LINE_END_H
#define SCAN_ACCELERATION_LINE_END_H

#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The first index in [i, n) of an LF or a CR, or n; one byte at a time.
/// Requires i <= n.
static inline size_t _scan_line_end_bytes(const uint8_t *p, size_t i, size_t n) {
    for (; i < n; i++) {
        if (p[i] == 0x0A || p[i] == 0x0D) return i;
    }
    return n;
}

#if defined(__SSE2__)
/// Where the 16 bytes at s are LF or CR, as a vector of 0xFF bytes.
static inline __attribute__((always_inline)) __m128i _line_end_hits16(const uint8_t *s) {
    __m128i v = _mm_loadu_si128((const __m128i *)s);
    return _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x0A)), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x0D)));
}

/// Bit k set where s[k] is LF or CR, for the 16 bytes from s.
static inline __attribute__((always_inline)) unsigned _line_end_mask16(const uint8_t *s) {
    return (unsigned)_mm_movemask_epi8(_line_end_hits16(s));
}
#endif

/// The first index in [i, n) of an LF or a CR, or n (see the file comment
/// for the steps). Requires i <= n.
/// - Complexity: O(n - i).
static inline __attribute__((always_inline)) size_t _scan_line_end(const uint8_t *p, size_t i, size_t n) {
#if defined(__SSE2__)
    if (n >= 16) {
        if (n - i >= 32) {
            unsigned mask = _line_end_mask16(p + i) | _line_end_mask16(p + i + 16) << 16;
            if (mask) return i + (size_t)__builtin_ctz(mask);
            i += 32;
        }
        for (; n - i >= 64; i += 64) {
            __m128i a = _line_end_hits16(p + i), b = _line_end_hits16(p + i + 16);
            __m128i c = _line_end_hits16(p + i + 32), d = _line_end_hits16(p + i + 48);
            if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d)))) {
                uint64_t mask = (uint64_t)(unsigned)_mm_movemask_epi8(a) | (uint64_t)(unsigned)_mm_movemask_epi8(b) << 16
                    | (uint64_t)(unsigned)_mm_movemask_epi8(c) << 32 | (uint64_t)(unsigned)_mm_movemask_epi8(d) << 48;
                return i + (size_t)__builtin_ctzll(mask);
            }
        }
        for (; n - i >= 16; i += 16) {
            unsigned mask = _line_end_mask16(p + i);
            if (mask) return i + (size_t)__builtin_ctz(mask);
        }
        if (i < n) {
            unsigned mask = _line_end_mask16(p + n - 16) >> (16 - (n - i));
            if (mask) return i + (size_t)__builtin_ctz(mask);
        }
        return n;
    }
#endif
    return _scan_line_end_bytes(p, i, n);
}

#endif
