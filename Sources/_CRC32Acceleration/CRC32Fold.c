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
// and x^127 for one lane, x^575 and x^511 for four lanes 512 bits apart,
// x^447/x^383 and x^319/x^255 to fold three and two lanes on at once.
//
// The tail. When r = n mod 16 bytes are left after the last whole lane X,
// the message ends in X's 16 bytes followed by the r tail bytes. Split that
// (16 + r)-byte sequence as its first r bytes, right-aligned in a lane of
// their own (leading zero bytes add nothing to a polynomial), and its last
// 16 bytes; one more fold of the first onto the second gives a lane
// congruent to the whole message. Byte shifts by r come from one table of
// shuffle indexes.
//
// The reduction. The register after the message is R = X·x^32 mod P, where
// X is the last lane. X·x^32 = H·x^96 + L·x^32 ≡ H·(x^96 mod P) + L·x^32,
// at most 96 bits; its top 32 bits T give T·x^64 ≡ T·(x^64 mod P), leaving
// Z ≡ X·x^32 in 64 bits. Barrett: with μ = floor(x^64 / P),
// q = floor(floor(Z / x^32)·μ / x^32) and R = (Z + q·P) mod x^32. In the
// reflected layout "divide by x^32" and "mod x^32" are the two 32-bit
// halves of a qword, and the one-bit shortfall of each product is taken up
// by the shifts noted below. The model of every step was checked against
// zlib's crc32 before this was written; the tests check it against the
// bitwise reference at every length and alignment.

#include "_CRC32Acceleration.h"

static const uint64_t fold4_h = 0x653d982200000000ULL;  // x^575 mod P
static const uint64_t fold4_l = 0xcad38e8f00000000ULL;  // x^511 mod P
static const uint64_t fold3_h = 0x69ccfc0d00000000ULL;  // x^447 mod P
static const uint64_t fold3_l = 0x2a28386200000000ULL;  // x^383 mod P
static const uint64_t fold2_h = 0x9570d49500000000ULL;  // x^319 mod P
static const uint64_t fold2_l = 0x01b5fd1d00000000ULL;  // x^255 mod P
static const uint64_t fold1_h = 0x65673b4600000000ULL;  // x^191 mod P
static const uint64_t fold1_l = 0x9ba54c6f00000000ULL;  // x^127 mod P
static const uint64_t reduce_96 = 0xccaa009e00000000ULL;  // x^95 mod P
static const uint64_t reduce_64 = 0xb8bc676500000000ULL;  // x^63 mod P
static const uint64_t barrett_mu = 0xfb808b2080000000ULL;  // floor(x^64 / P), 33 bits
static const uint64_t polynomial = 0xedb8832080000000ULL;  // P, 33 bits

void _crc32_clmul_constants(uint64_t out[12]) {
    const uint64_t all[12] = {
        fold4_h, fold4_l, fold3_h, fold3_l, fold2_h, fold2_l, fold1_h, fold1_l,
        reduce_96, reduce_64, barrett_mu, polynomial,
    };
    for (int i = 0; i < 12; i++) out[i] = all[i];
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <cpuid.h>
#include <immintrin.h>
#include <string.h>

int _crc32_fold_available(void) {
    unsigned int a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    return (c & bit_PCLMUL) != 0 && (c & bit_SSSE3) != 0 && (c & bit_SSE4_1) != 0 && (d & bit_SSE2) != 0;
}

/// Whether the instructions exist, asked once as the library loads, so a
/// call pays one load for it. Were the constructor not run, 0 would send
/// every call to the caller's tables: slower, never wrong.
static int clmul_usable = 0;

__attribute__((constructor)) static void ask_for_clmul(void) { clmul_usable = _crc32_fold_available(); }

/// pshufb indexes: 16 bytes at `shift_indexes + 16 + r` move a lane's bytes
/// r places down (toward byte 0), at `shift_indexes + r` 16 - r places up;
/// 0x80 clears a byte.
static const uint8_t shift_indexes[48] = {
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
};

__attribute__((target("pclmul,sse4.1")))
static inline __m128i fold(__m128i lane, __m128i constants, __m128i next) {
    __m128i high = _mm_clmulepi64_si128(lane, constants, 0x00);  // H × x^(…) for the earlier qword
    __m128i low = _mm_clmulepi64_si128(lane, constants, 0x11);   // L × x^(…) for the later qword
    return _mm_xor_si128(_mm_xor_si128(high, low), next);
}

/// X·x^32 mod P for a lane X: the register after the lane's bytes.
__attribute__((target("pclmul,sse4.1")))
static inline uint32_t reduce(__m128i x) {
    const __m128i constants = _mm_set_epi64x((long long)reduce_64, (long long)reduce_96);
    const __m128i barrett = _mm_set_epi64x((long long)polynomial, (long long)barrett_mu);
    // H·(x^96 mod P), in bits 32..127, plus L·x^32: L moved to bits 32..95.
    __m128i y = _mm_xor_si128(_mm_clmulepi64_si128(x, constants, 0x00),
                              _mm_slli_si128(_mm_srli_si128(x, 8), 4));
    // The top 32 bits (bits 32..63, below them zeros) times x^64 mod P land
    // in the high qword: Z ≡ X·x^32 in 64 bits, moved to the low qword.
    __m128i z = _mm_srli_si128(_mm_xor_si128(_mm_clmulepi64_si128(y, constants, 0x10), y), 8);
    // q: floor(Z / x^32) (the low 32 bits) times μ; its degrees 64..95 sit
    // in bits 31..62, taken to bits 1..32 so that q·P's low 32 degrees come
    // out as the high qword's low 32 bits.
    __m128i q = _mm_clmulepi64_si128(_mm_and_si128(z, _mm_set_epi64x(0, 0xFFFFFFFFLL)), barrett, 0x00);
    q = _mm_and_si128(_mm_srli_epi64(q, 30), _mm_set_epi64x(0, 0x1FFFFFFFELL));
    __m128i qp = _mm_clmulepi64_si128(q, barrett, 0x10);
    return (uint32_t)_mm_extract_epi32(z, 1) ^ (uint32_t)_mm_extract_epi32(qp, 2);
}

__attribute__((target("pclmul,sse4.1")))
int _crc32_clmul(uint32_t reg, const void *source, size_t n, uint32_t *out) {
    const uint8_t *p = (const uint8_t *)source;
    if (p == NULL || out == NULL || n < 8 || !clmul_usable) return 0;
    if (n < 16) {
        // Right-aligned in one lane: the last 8 bytes are the high qword,
        // the first n - 8 the top of the low qword; the register goes onto
        // the first four bytes wherever they fall.
        uint64_t first = 0, last = 0;
        memcpy(&first, p, 8);
        memcpy(&last, p + n - 8, 8);
        size_t gap = 16 - n;  // leading zero bytes, 1...8
        uint64_t low = gap == 8 ? 0 : (first ^ reg) << (8 * gap);
        last ^= n - 8 < 4 ? (uint64_t)reg >> (8 * (n - 8)) : 0;
        *out = reduce(_mm_set_epi64x((long long)last, (long long)low));
        return 1;
    }
    const __m128i k1 = _mm_set_epi64x((long long)fold1_l, (long long)fold1_h);
    __m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi32_si128((int)reg));
    size_t i = 16;
    if (n >= 64) {
        const __m128i k4 = _mm_set_epi64x((long long)fold4_l, (long long)fold4_h);
        __m128i x1 = _mm_loadu_si128((const __m128i *)(p + 16));
        __m128i x2 = _mm_loadu_si128((const __m128i *)(p + 32));
        __m128i x3 = _mm_loadu_si128((const __m128i *)(p + 48));
        i = 64;
        while (n - i >= 64) {
            x = fold(x, k4, _mm_loadu_si128((const __m128i *)(p + i)));
            x1 = fold(x1, k4, _mm_loadu_si128((const __m128i *)(p + i + 16)));
            x2 = fold(x2, k4, _mm_loadu_si128((const __m128i *)(p + i + 32)));
            x3 = fold(x3, k4, _mm_loadu_si128((const __m128i *)(p + i + 48)));
            i += 64;
        }
        // The four lanes onto the last at once (three, two and one lanes
        // on), not one after another: one product's latency, not three.
        const __m128i k3 = _mm_set_epi64x((long long)fold3_l, (long long)fold3_h);
        const __m128i k2 = _mm_set_epi64x((long long)fold2_l, (long long)fold2_h);
        x = _mm_xor_si128(fold(x, k3, fold(x1, k2, _mm_setzero_si128())), fold(x2, k1, x3));
    }
    while (n - i >= 16) {
        x = fold(x, k1, _mm_loadu_si128((const __m128i *)(p + i)));
        i += 16;
    }
    size_t r = n - i;
    if (r > 0) {
        __m128i up = _mm_loadu_si128((const __m128i *)(shift_indexes + r));
        __m128i down = _mm_loadu_si128((const __m128i *)(shift_indexes + 16 + r));
        __m128i last = _mm_loadu_si128((const __m128i *)(p + n - 16));  // ends with the tail
        __m128i head = _mm_shuffle_epi8(x, up);  // X's first r bytes, right-aligned
        // X's other 16 - r bytes, then the tail (where `up` keeps a byte, its top bit is clear).
        __m128i rest = _mm_blendv_epi8(last, _mm_shuffle_epi8(x, down), up);
        x = fold(head, k1, rest);
    }
    *out = reduce(x);
    return 1;
}

#else

// Other CPUs: the caller's table code does all the work.
int _crc32_fold_available(void) { return 0; }

int _crc32_clmul(uint32_t reg, const void *p, size_t n, uint32_t *out) {
    (void)reg; (void)p; (void)n; (void)out;
    return 0;
}

#endif
