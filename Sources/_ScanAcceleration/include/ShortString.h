// The end of a short JSON string, inlined into the Swift caller.
//
// Keys and many values of an API event are a few plain ASCII bytes
// (`"type"`, `"url"`, `"srvtoolu_01…"`). For them a call into the string
// scans costs more than the reading: their windows, their stores, their
// entry. Two 16-byte windows at most find the closing quote and check
// that nothing before it needs attention; anything else is the scans' to
// read. A string that a chunk cuts within those 32 bytes, plain to the
// chunk's end (a value of tool input streamed in 16-byte deltas, most
// often), is told apart too: its bytes can be kept as they are, with no
// scan to read them again. `static inline` so that the compiler inlines
// it into the Swift caller; with SSE2 (every x86_64 CPU) a window is one
// load and four compares, elsewhere a byte loop over at most 32 bytes.
// Swift cannot emit pmovmskb, which turns the compares into an index. On
// the general path (CLAUDE_STREAMING_GENERAL_PATH, GeneralPath.c) the
// windows are off like every other scan's, and the byte loop runs, as on
// other CPUs.
//
// Worked example: the contents of `"url":` start at p[i] = `u`. The first
// window's quote mask has bit 3 set (and whatever lies past it); its mask
// of backslashes, control bytes and bytes of 0x80 and up is clear below
// bit 3, so the string ends at i + 3.
#ifndef SCAN_ACCELERATION_SHORT_STRING_H
#define SCAN_ACCELERATION_SHORT_STRING_H

#include <stddef.h>
#include <stdint.h>

/// Set once as the library loads (GeneralPath.c): the byte loops only.
extern int _scan_general_path_only;

#if defined(__SSE2__)
#include <emmintrin.h>

/// Bit k of `*quotes` set where s[k] is a quote; of the result, where it
/// is a backslash, a control byte or 0x80 and up; for the 16 bytes from s.
static inline __attribute__((always_inline)) unsigned _short_string_masks16(const uint8_t *s, unsigned *quotes) {
    __m128i v = _mm_loadu_si128((const __m128i *)s);
    *quotes = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    // Signed: bytes of 0x80 and up are negative, so below 0x20 too.
    __m128i others = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')), _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
    return (unsigned)_mm_movemask_epi8(others);
}
#endif

/// The index of the closing quote of the string whose contents start at
/// p[i], when it is within p[i..<i+32] (and p[0..<n]) and no byte before
/// it is a backslash, a control byte or 0x80 and up; n when p ends first,
/// fewer than 32 bytes on, and none of p[i..<n] is a quote or such a byte
/// (the string goes on past p, plain so far); otherwise n + 1. Requires
/// i <= n. Every load is inside p[0..<n].
/// - Complexity: O(1).
static inline __attribute__((always_inline)) size_t _scan_json_short_string(const uint8_t *p, size_t i, size_t n) {
#if defined(__SSE2__)
    if (!_scan_general_path_only && n - i >= 32) {
        unsigned quotes;
        unsigned others = _short_string_masks16(p + i, &quotes);
        size_t base = i;
        if (quotes == 0 && others == 0) {
            others = _short_string_masks16(p + i + 16, &quotes);
            base = i + 16;
        }
        if (quotes == 0) return n + 1;
        unsigned first = (unsigned)__builtin_ctz(quotes);
        return (others & ((1u << first) - 1)) == 0 ? base + first : n + 1;
    }
#endif
    size_t end = n - i < 32 ? n : i + 32;
    for (size_t j = i; j < end; j++) {
        uint8_t b = p[j];
        if (b == '"') return j;
        if (b == '\\' || b < 0x20 || b >= 0x80) return n + 1;
    }
    return n - i < 32 ? n : n + 1;
}

#endif
