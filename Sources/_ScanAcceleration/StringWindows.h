// The masks of one window of a JSON string's contents, 16 bytes or (with
// AVX2) 32: where its special bytes are (quote, backslash, control byte)
// and where its high ones are (0x80 and above, checked as UTF-8 by
// UTF8Windows.h). Static inline, for the scans that read strings
// (ByteRuns.c) and the one that writes them (StringEscape.c).
//
// Worked example: the 16-byte window `ab"\x01` followed by `\xC3\xA9` and
// eight spaces has `special` bits 2 (the quote) and 3 (the control byte)
// and `high` bits 4 and 5; `through(special)` is bits 0 to 2, the errors
// that count before the quote.

#ifndef SCAN_ACCELERATION_STRING_WINDOWS_H
#define SCAN_ACCELERATION_STRING_WINDOWS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>

/// The masks of the 16-byte window `v`: bit k of `special` where byte k
/// is '"', '\\' or a control byte, of `high` where it is 0x80 or above,
/// of `quotes` where it is '"' (which tells a string's end from an escape
/// without loading the byte again).
static inline __attribute__((always_inline)) void string_masks_of16(
    __m128i v, uint32_t *special, uint32_t *high, uint32_t *quotes) {
    __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    __m128i hits = _mm_or_si128(
        _mm_or_si128(quote, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
        _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));  // signed: below 0x20, or 0x80 and above
    *high = (uint32_t)_mm_movemask_epi8(v);
    *special = (uint32_t)_mm_movemask_epi8(hits) & ~*high;
    *quotes = (uint32_t)_mm_movemask_epi8(quote);
}

/// `string_masks_of16` of the window at `p`, without `quotes`.
static inline __attribute__((always_inline)) void string_masks16(const uint8_t *p, uint32_t *special, uint32_t *high) {
    uint32_t quotes;
    string_masks_of16(_mm_loadu_si128((const __m128i *)p), special, high, &quotes);
}

/// Bits 0 through k: the errors that count when the first special byte
/// is at k (a character cut by the special shows as an error at it).
static inline __attribute__((always_inline)) uint64_t through(uint64_t special) {
    // For a stop at 63, 2 << 63 wraps to 0: all 64 bits, as it should be.
    return special ? (2ull << __builtin_ctzll(special)) - 1 : ~0ull;
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

/// `string_masks_of16` for 32-byte windows.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void string_masks_of32(
    __m256i v, uint32_t *special, uint32_t *high, uint32_t *quotes) {
    __m256i quote = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('"'));
    __m256i hits = _mm256_or_si256(_mm256_or_si256(quote, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\'))),
        _mm256_cmpgt_epi8(_mm256_set1_epi8(0x20), v));  // signed, as above
    *high = (uint32_t)_mm256_movemask_epi8(v);
    *special = (uint32_t)_mm256_movemask_epi8(hits) & ~*high;
    *quotes = (uint32_t)_mm256_movemask_epi8(quote);
}

/// `string_masks16` for 32-byte windows.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void string_masks32(
    const uint8_t *p, uint32_t *special, uint32_t *high) {
    uint32_t quotes;
    string_masks_of32(_mm256_loadu_si256((const __m256i *)p), special, high, &quotes);
}

#endif

#endif

#endif
