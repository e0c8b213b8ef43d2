// UTF-8 checked in windows of 16 or 32 bytes, without a branch per
// character (the rules, and how the string scans use them, are in the
// comment at the top of ByteRuns.c). Static inline, for ByteRuns.c alone:
// a header of its own because the rules are a concept of their own.
//
// Worked example: the 16-byte window `ab\xE2\x98\x94 \xC3(` followed by
// ASCII. Shifted by one, two and three places, the bytes before each are:
// for \x98, E2 one place back, so a continuation is due (it is one); for
// \x94, E2 two places back, due again (it is); for `(` after \xC3, due but
// absent: bit 7 of the result is set, an error at `(`, which is where a
// character cut by a special byte shows.

#ifndef SCAN_ACCELERATION_UTF8_WINDOWS_H
#define SCAN_ACCELERATION_UTF8_WINDOWS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>

/// 32 zero bytes, then 32 of 0xFF: a load at `keep_from + 32 - z` keeps
/// the bytes of a window from its z-th on.
static const uint8_t keep_from[64] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255};

/// Whether the bytes before `end` leave a character open: a lead in one
/// of the last three places whose character runs past `end`.
static inline __attribute__((always_inline)) int leaves_character_open(const uint8_t *p, size_t end) {
    // `|`, not `||`: three compares cost less than a branch that guesses wrong.
    return (p[end - 1] >= 0xC0) | (p[end - 2] >= 0xE0) | (p[end - 3] >= 0xF0);
}

/// How far before `j` the lead of a character open across `j` is (1 to 3,
/// looking no further back than `limit` bytes), or 0 when there is none:
/// where a scan that stops at `j` must resume so as not to cut it.
static inline __attribute__((always_inline)) size_t open_character_back(const uint8_t *p, size_t j, size_t limit) {
    for (size_t back = 1; back <= 3 && back <= limit; back++) {
        if (p[j - back] >= 0xC0) return back;
    }
    return 0;
}

/// The UTF-8 errors of one 16-byte window `v`, given `p1`, `p2`, `p3`:
/// the bytes one, two and three places before each (see the file
/// comment). Bit k is set where byte k breaks the rules.
static inline __attribute__((always_inline)) uint32_t utf8_errors16(__m128i v, __m128i p1, __m128i p2, __m128i p3) {
    const __m128i zero = _mm_setzero_si128();
    // A continuation byte must come after any lead, two places after a
    // three- or four-byte lead, and three after a four-byte lead.
    __m128i need = _mm_or_si128(
        _mm_or_si128(_mm_subs_epu8(p1, _mm_set1_epi8((char)0xBF)), _mm_subs_epu8(p2, _mm_set1_epi8((char)0xDF))),
        _mm_subs_epu8(p3, _mm_set1_epi8((char)0xEF)));
    __m128i free = _mm_cmpeq_epi8(need, zero);
    __m128i continuation = _mm_cmplt_epi8(v, _mm_set1_epi8((char)0xC0));  // signed: 80..BF
    __m128i bad = _mm_cmpeq_epi8(free, continuation);
    // C0 and C1 never occur; nor does F5 and above (`above`, below).
    bad = _mm_or_si128(bad, _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char)0xFE)), _mm_set1_epi8((char)0xC0)));
    // Second bytes out of their lead's range: overlong (E0 80..9F, F0 80..8F),
    // surrogates (ED A0..BF), past U+10FFFF (F4 90..BF).
    bad = _mm_or_si128(bad, _mm_and_si128(_mm_cmpeq_epi8(p1, _mm_set1_epi8((char)0xE0)), _mm_cmplt_epi8(v, _mm_set1_epi8((char)0xA0))));
    bad = _mm_or_si128(bad, _mm_and_si128(_mm_cmpeq_epi8(p1, _mm_set1_epi8((char)0xED)), _mm_cmpgt_epi8(v, _mm_set1_epi8((char)0x9F))));
    bad = _mm_or_si128(bad, _mm_and_si128(_mm_cmpeq_epi8(p1, _mm_set1_epi8((char)0xF0)), _mm_cmplt_epi8(v, _mm_set1_epi8((char)0x90))));
    bad = _mm_or_si128(bad, _mm_and_si128(_mm_cmpeq_epi8(p1, _mm_set1_epi8((char)0xF4)), _mm_cmpgt_epi8(v, _mm_set1_epi8((char)0x8F))));
    uint32_t above = ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_subs_epu8(v, _mm_set1_epi8((char)0xF4)), zero)) & 0xFFFFu;
    return (uint32_t)_mm_movemask_epi8(bad) | above;
}

/// The UTF-8 errors of the 16-byte window at `base`, whose bytes before
/// `i` are not the string's (read as zeros). With `loads`, the three bytes
/// before the window are read from `p` (a character is open across
/// `base`; needs base >= 3, and the caller ignores the bits of bytes before
/// `i`); otherwise they count as complete characters.
static inline __attribute__((always_inline)) uint32_t window_errors16(const uint8_t *p, size_t base, size_t i, int loads) {
    __m128i v = _mm_loadu_si128((const __m128i *)(p + base));
    if (loads) {
        return utf8_errors16(v, _mm_loadu_si128((const __m128i *)(p + base - 1)),
            _mm_loadu_si128((const __m128i *)(p + base - 2)), _mm_loadu_si128((const __m128i *)(p + base - 3)));
    }
    if (base < i) v = _mm_and_si128(v, _mm_loadu_si128((const __m128i *)(keep_from + 32 - (i - base))));
    return utf8_errors16(v, _mm_slli_si128(v, 1), _mm_slli_si128(v, 2), _mm_slli_si128(v, 3));
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

/// `utf8_errors16` for 32-byte windows.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) uint32_t utf8_errors32(
    __m256i v, __m256i p1, __m256i p2, __m256i p3) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i need = _mm256_or_si256(
        _mm256_or_si256(_mm256_subs_epu8(p1, _mm256_set1_epi8((char)0xBF)), _mm256_subs_epu8(p2, _mm256_set1_epi8((char)0xDF))),
        _mm256_subs_epu8(p3, _mm256_set1_epi8((char)0xEF)));
    __m256i free = _mm256_cmpeq_epi8(need, zero);
    __m256i continuation = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)0xC0), v);
    __m256i bad = _mm256_cmpeq_epi8(free, continuation);
    // The rest needs a lead whose second byte has a narrower range (E0, ED,
    // F0, F4: one place back) or a byte UTF-8 never uses (C0, C1, F5 and
    // above). Text rarely has one, so they are looked for together first:
    // E0, anything from ED up one place back, C0 or C1, F5 and up.
    __m256i rare = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(p1, _mm256_set1_epi8((char)0xE0)), _mm256_subs_epu8(p1, _mm256_set1_epi8((char)0xEC))),
        _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_and_si256(v, _mm256_set1_epi8((char)0xFE)), _mm256_set1_epi8((char)0xC0)),
            _mm256_subs_epu8(v, _mm256_set1_epi8((char)0xF4))));
    if (_mm256_testz_si256(rare, rare)) return (uint32_t)_mm256_movemask_epi8(bad);
    bad = _mm256_or_si256(bad, _mm256_cmpeq_epi8(_mm256_and_si256(v, _mm256_set1_epi8((char)0xFE)), _mm256_set1_epi8((char)0xC0)));
    bad = _mm256_or_si256(bad, _mm256_and_si256(_mm256_cmpeq_epi8(p1, _mm256_set1_epi8((char)0xE0)), _mm256_cmpgt_epi8(_mm256_set1_epi8((char)0xA0), v)));
    bad = _mm256_or_si256(bad, _mm256_and_si256(_mm256_cmpeq_epi8(p1, _mm256_set1_epi8((char)0xED)), _mm256_cmpgt_epi8(v, _mm256_set1_epi8((char)0x9F))));
    bad = _mm256_or_si256(bad, _mm256_and_si256(_mm256_cmpeq_epi8(p1, _mm256_set1_epi8((char)0xF0)), _mm256_cmpgt_epi8(_mm256_set1_epi8((char)0x90), v)));
    bad = _mm256_or_si256(bad, _mm256_and_si256(_mm256_cmpeq_epi8(p1, _mm256_set1_epi8((char)0xF4)), _mm256_cmpgt_epi8(v, _mm256_set1_epi8((char)0x8F))));
    uint32_t above = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_subs_epu8(v, _mm256_set1_epi8((char)0xF4)), zero));
    return (uint32_t)_mm256_movemask_epi8(bad) | above;
}

/// `window_errors16` for 32-byte windows. Shifting in zeros across the
/// two 16-byte lanes: `lower` is [zero, the low lane], and alignr takes
/// each lane's bytes from the lane below it.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) uint32_t window_errors32(
    const uint8_t *p, size_t base, size_t i, int loads) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(p + base));
    if (loads) {
        return utf8_errors32(v, _mm256_loadu_si256((const __m256i *)(p + base - 1)),
            _mm256_loadu_si256((const __m256i *)(p + base - 2)), _mm256_loadu_si256((const __m256i *)(p + base - 3)));
    }
    if (base < i) v = _mm256_and_si256(v, _mm256_loadu_si256((const __m256i *)(keep_from + 32 - (i - base))));
    __m256i lower = _mm256_permute2x128_si256(v, v, 0x08);
    return utf8_errors32(v, _mm256_alignr_epi8(v, lower, 15), _mm256_alignr_epi8(v, lower, 14), _mm256_alignr_epi8(v, lower, 13));
}

#endif

#endif

#endif
