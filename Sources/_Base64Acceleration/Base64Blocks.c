// Base64 by byte shuffles, after Muła and Lemire, "Faster Base64 Encoding
// and Decoding Using AVX2 Instructions" (the method; the tables below are
// derived here, and the code is ours).
//
// Worked example, one group "TWFu" (the base64 of "Man"):
//   characters      T    W    F    u      (0x54 0x57 0x46 0x75)
//   high nibbles    5    5    4    7      → validity class and offset
//   offsets       -65  -65  -65  -71      (A..Z → 0..25, a..z → 26..51)
//   sextets        19   22    5   46
//   maddubs       19·64 + 22 = 1238,  5·64 + 46 = 366        (12 bits each)
//   madd          1238·4096 + 366 = 0x4D616E                   (24 bits)
//   shuffle       bytes 2, 1, 0 of the lane → 0x4D 0x61 0x6E = "Man"
//
// Validity, one test per byte: the high nibble picks a class bit
// (class_of_high), the low nibble the set of classes in which it is NOT a
// base64 character (invalid_for_low); a byte is valid when the two share no
// bit. Classes: 0 = high nibble 0, 1 or 8..F (never valid); 1 = 2 (only
// '+' 0x2B and '/' 0x2F); 2 = 3 (only '0'..'9'); 3 = 4 and 6 (not 0x40 or
// 0x60); 4 = 5 and 7 (only up to 0x5A and 0x7A).
//
// Offsets: by high nibble, with '/' moved to index 1 (its high nibble 2
// plus the -1 of a compare-equal) so that it and '+' differ.

#include "_Base64Acceleration.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <cpuid.h>
#include <immintrin.h>

int _base64_blocks_available(void) {
    unsigned int a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    // The OS must save the YMM registers (OSXSAVE, then XCR0 bits 1 and 2).
    if ((c & bit_OSXSAVE) == 0 || (c & bit_AVX) == 0) return 0;
    unsigned int xcr0_low = 0, xcr0_high = 0;
    __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 6) != 6) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & bit_AVX2) != 0;
}

/// -1 until asked, then whether AVX2 runs here (idempotent, so a race
/// between two first callers is harmless).
static int avx2_state = -1;

static int avx2_usable(void) {
    int state = __atomic_load_n(&avx2_state, __ATOMIC_RELAXED);
    if (state < 0) {
        state = _base64_blocks_available();
        __atomic_store_n(&avx2_state, state, __ATOMIC_RELAXED);
    }
    return state;
}

/// Nonzero bytes where `in` holds a byte outside the alphabet ('=' included).
__attribute__((target("avx2")))
static inline __m256i outside_alphabet(__m256i in) {
    const __m256i class_of_high = _mm256_setr_epi8(
        1, 1, 2, 4, 8, 16, 8, 16, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 2, 4, 8, 16, 8, 16, 1, 1, 1, 1, 1, 1, 1, 1);
    const __m256i invalid_for_low = _mm256_setr_epi8(
        0x0B, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x07, 0x15, 0x17, 0x17, 0x17, 0x15,
        0x0B, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x07, 0x15, 0x17, 0x17, 0x17, 0x15);
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    __m256i high = _mm256_and_si256(_mm256_srli_epi32(in, 4), nibble);
    __m256i low = _mm256_and_si256(in, nibble);
    return _mm256_and_si256(_mm256_shuffle_epi8(invalid_for_low, low), _mm256_shuffle_epi8(class_of_high, high));
}

/// The 24 bytes of 32 characters of the alphabet, in the result's low 24
/// bytes (its top 8 are zero).
__attribute__((target("avx2")))
static inline __m256i decode32(__m256i in) {
    const __m256i offset_of_high = _mm256_setr_epi8(
        0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    const __m256i slash = _mm256_set1_epi8('/');
    const __m256i pair = _mm256_set1_epi32(0x01400140);   // bytes 64, 1, 64, 1
    const __m256i quad = _mm256_set1_epi32(0x00011000);   // words 4096, 1
    const __m256i gather = _mm256_setr_epi8(
        2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
        2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7);
    __m256i high = _mm256_and_si256(_mm256_srli_epi32(in, 4), nibble);
    __m256i index = _mm256_add_epi8(high, _mm256_cmpeq_epi8(in, slash));
    __m256i sextets = _mm256_add_epi8(in, _mm256_shuffle_epi8(offset_of_high, index));
    __m256i twelve = _mm256_maddubs_epi16(sextets, pair);
    __m256i word = _mm256_madd_epi16(twelve, quad);
    return _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(word, gather), lanes);
}

/// Bit k set where byte k of `bad` (from `outside_alphabet`) is nonzero.
__attribute__((target("avx2")))
static inline unsigned outside_mask(__m256i bad) {
    return ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(bad, _mm256_setzero_si256()));
}

__attribute__((target("avx2")))
static size_t decode_blocks_avx2(const uint8_t *src, size_t n, uint8_t *dst, size_t capacity) {
    size_t i = 0, written = 0;
    while (n - i >= 32 && capacity - written >= 32) {
        __m256i in = _mm256_loadu_si256((const __m256i *)(src + i));
        __m256i bad = outside_alphabet(in);
        if (!_mm256_testz_si256(bad, bad)) break;
        _mm256_storeu_si256((__m256i *)(dst + written), decode32(in));
        i += 32;
        written += 24;
    }
    return i;
}

/// Where the alphabet ends at or after `from` (n when it does not; `from`
/// when n < 32, nothing looked at): 32 bytes per test, the last window
/// overlapping the one before so that no load passes `n`.
__attribute__((target("avx2")))
static size_t alphabet_end_avx2(const uint8_t *src, size_t from, size_t n) {
    size_t i = from;
    while (i < n && n >= 32) {
        size_t at = n - i >= 32 ? i : n - 32;
        unsigned outside = outside_mask(outside_alphabet(_mm256_loadu_si256((const __m256i *)(src + at))));
        outside &= ~0u << (i - at);  // bytes before `i` were looked at already
        if (outside != 0) return at + (size_t)__builtin_ctz(outside);
        i = at + 32;
    }
    return i;
}

__attribute__((target("avx2")))
static size_t decode_run_avx2(const uint8_t *src, size_t n, uint8_t *dst, size_t capacity, size_t *stop) {
    size_t i = 0, written = 0, end = n;
    int found = 0;
    while (n - i >= 32 && capacity - written >= 32) {
        __m256i in = _mm256_loadu_si256((const __m256i *)(src + i));
        __m256i bad = outside_alphabet(in);
        if (!_mm256_testz_si256(bad, bad)) {
            end = i + (size_t)__builtin_ctz(outside_mask(bad));
            found = 1;
            break;
        }
        _mm256_storeu_si256((__m256i *)(dst + written), decode32(in));
        i += 32;
        written += 24;
    }
    if (!found) end = alphabet_end_avx2(src, i, n);
    // The whole groups left before `end`, as one block overlapping the ones
    // before (its first characters decode again to the same bytes).
    size_t full = end - end % 4;
    if (full > i && full >= 32 && full - i <= 32 && (full - 32) / 4 * 3 + 32 <= capacity) {
        __m256i in = _mm256_loadu_si256((const __m256i *)(src + full - 32));
        _mm256_storeu_si256((__m256i *)(dst + (full - 32) / 4 * 3), decode32(in));
        i = full;
    }
    *stop = end;
    return i;
}

size_t _base64_decode_blocks(const void *source, size_t n, uint8_t *dst, size_t capacity) {
    if (source == NULL || dst == NULL || !avx2_usable()) return 0;
    return decode_blocks_avx2((const uint8_t *)source, n, dst, capacity);
}

size_t _base64_decode_run(const void *source, size_t n, uint8_t *dst, size_t capacity, size_t *stop) {
    if (stop == NULL) return 0;
    *stop = 0;
    if (source == NULL || dst == NULL || !avx2_usable()) return 0;
    return decode_run_avx2((const uint8_t *)source, n, dst, capacity, stop);
}

#else

int _base64_blocks_available(void) { return 0; }

size_t _base64_decode_blocks(const void *source, size_t n, uint8_t *dst, size_t capacity) {
    (void)source; (void)n; (void)dst; (void)capacity;
    return 0;
}

size_t _base64_decode_run(const void *source, size_t n, uint8_t *dst, size_t capacity, size_t *stop) {
    (void)source; (void)n; (void)dst; (void)capacity;
    if (stop != NULL) *stop = 0;
    return 0;
}

#endif
