// The inside of a JSON string up to its first '"' or '\', 16 bytes per
// step: the one pass Bedrock's chunk decoder makes over the padding member
// that follows the base64 (two memchr calls, one per character, cost more
// on strings of a few dozen bytes; a byte loop more on the shortest ones).
// SSE2 is part of x86_64 itself, so there is no CPU check; other CPUs take
// the byte loop.

#include "_Base64Acceleration.h"

#if defined(__SSE2__)
#include <emmintrin.h>

/// Bit k set where byte k of p[0..<16] is '"' or '\'.
static inline unsigned quote_or_backslash(const uint8_t *p) {
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    __m128i hits = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    return (unsigned)_mm_movemask_epi8(hits);
}

size_t _json_string_plain_length(const void *source, size_t n, size_t before) {
    const uint8_t *p = (const uint8_t *)source;
    if (p == NULL) return 0;
    if (n < 16 && n > 0 && before >= 16 - n) {
        // One window ending at n, its first 16 - n bytes (read, not counted)
        // from before `source`.
        size_t lead = 16 - n;
        unsigned hits = quote_or_backslash(p - lead) >> lead;
        return hits != 0 ? (size_t)__builtin_ctz(hits) : n;
    }
    size_t i = 0;
    for (; n - i >= 16; i += 16) {
        unsigned hits = quote_or_backslash(p + i);
        if (hits != 0) return i + (size_t)__builtin_ctz(hits);
    }
    if (i < n && n >= 16) {
        // The last 16 bytes, overlapping those already looked at.
        size_t at = n - 16;
        unsigned hits = quote_or_backslash(p + at) & (~0u << (i - at));
        return hits != 0 ? at + (size_t)__builtin_ctz(hits) : n;
    }
    for (; i < n; i++) {
        if (p[i] == '"' || p[i] == '\\') return i;
    }
    return n;
}

#else

size_t _json_string_plain_length(const void *source, size_t n, size_t before) {
    (void)before;
    const uint8_t *p = (const uint8_t *)source;
    if (p == NULL) return 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '"' || p[i] == '\\') return i;
    }
    return n;
}

#endif
