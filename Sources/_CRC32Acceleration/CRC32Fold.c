// CRC-32 by carry-less multiplication, after Intel's "Fast CRC Computation
// for Generic Polynomials Using PCLMULQDQ" (the method; the code and
// constants are ours).
//
// Why it is correct. With the bytes loaded little-endian, bit j of a
// 128-bit lane stands for x^(127-j): the lane is the message's polynomial
// bit-reflected. For a lane X = H·x^64 + L (H its low qword, the earlier
// bytes) followed by 128 bits D, X·x^128 + D ≡ H·(x^192 mod P) +
// L·(x^128 mod P) + D (mod P): each product is at most 96 bits, so the fold
// keeps a 128-bit lane that stays congruent to everything consumed. A
// carry-less product of two reflected qwords comes out one bit short
// (bit k stands for x^(126-k)), so each constant is x^(m-1) mod P: x^191
// and x^127 for one lane, x^575 and x^511 for four lanes 512 bits apart.
// At the end the message ≡ the last lane, so the raw CRC of the lane's 16
// bytes (finished by the caller's table code) is the message's.

#include "_CRC32Acceleration.h"

static const uint64_t fold4_h = 0x653d982200000000ULL;  // x^575 mod P
static const uint64_t fold4_l = 0xcad38e8f00000000ULL;  // x^511 mod P
static const uint64_t fold1_h = 0x65673b4600000000ULL;  // x^191 mod P
static const uint64_t fold1_l = 0x9ba54c6f00000000ULL;  // x^127 mod P

void _crc32_fold_constants(uint64_t out[4]) {
    out[0] = fold4_h;
    out[1] = fold4_l;
    out[2] = fold1_h;
    out[3] = fold1_l;
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <cpuid.h>
#include <immintrin.h>

int _crc32_fold_available(void) {
    unsigned int a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    return (c & bit_PCLMUL) != 0 && (d & bit_SSE2) != 0;
}

__attribute__((target("pclmul,sse2")))
static inline __m128i fold(__m128i lane, __m128i constants, __m128i next) {
    __m128i high = _mm_clmulepi64_si128(lane, constants, 0x00);  // H × x^(…) for the earlier qword
    __m128i low = _mm_clmulepi64_si128(lane, constants, 0x11);   // L × x^(…) for the later qword
    return _mm_xor_si128(_mm_xor_si128(high, low), next);
}

__attribute__((target("pclmul,sse2")))
size_t _crc32_fold(uint32_t reg, const uint8_t *p, size_t n, uint8_t folded[16]) {
    if (p == NULL || n < 64) return 0;
    const __m128i k4 = _mm_set_epi64x((long long)fold4_l, (long long)fold4_h);
    const __m128i k1 = _mm_set_epi64x((long long)fold1_l, (long long)fold1_h);
    __m128i x0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi32_si128((int)reg));
    __m128i x1 = _mm_loadu_si128((const __m128i *)(p + 16));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(p + 32));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(p + 48));
    size_t i = 64;
    while (n - i >= 64) {
        x0 = fold(x0, k4, _mm_loadu_si128((const __m128i *)(p + i)));
        x1 = fold(x1, k4, _mm_loadu_si128((const __m128i *)(p + i + 16)));
        x2 = fold(x2, k4, _mm_loadu_si128((const __m128i *)(p + i + 32)));
        x3 = fold(x3, k4, _mm_loadu_si128((const __m128i *)(p + i + 48)));
        i += 64;
    }
    __m128i x = fold(fold(fold(x0, k1, x1), k1, x2), k1, x3);
    while (n - i >= 16) {
        x = fold(x, k1, _mm_loadu_si128((const __m128i *)(p + i)));
        i += 16;
    }
    _mm_storeu_si128((__m128i *)folded, x);
    return i;
}

#else

// Other CPUs: the caller's table code does all the work.
int _crc32_fold_available(void) { return 0; }

size_t _crc32_fold(uint32_t reg, const uint8_t *p, size_t n, uint8_t folded[16]) {
    (void)reg; (void)p; (void)n; (void)folded;
    return 0;
}

#endif
