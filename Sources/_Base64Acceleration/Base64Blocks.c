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
#include "Base64Vectors.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <cpuid.h>

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

/// Whether AVX2 runs here, asked once as the library loads, so a call pays
/// one load for it. Were the constructor not run, 0 would send every call
/// to the scalar code: slower, never wrong.
int _base64_avx2 = 0;

__attribute__((constructor)) static void ask_for_avx2(void) { _base64_avx2 = _base64_blocks_available(); }

__attribute__((target("avx2")))
static size_t decode_blocks_only_avx2(const uint8_t *src, size_t n, uint8_t *dst, size_t capacity) {
    size_t outside = n;
    return decode_blocks_avx2(src, n, dst, capacity, &outside);
}

size_t _base64_decode_blocks(const void *source, size_t n, uint8_t *dst, size_t capacity) {
    if (source == NULL || dst == NULL || !_base64_avx2) return 0;
    return decode_blocks_only_avx2((const uint8_t *)source, n, dst, capacity);
}

#else

int _base64_blocks_available(void) { return 0; }

int _base64_avx2 = 0;

size_t _base64_decode_blocks(const void *source, size_t n, uint8_t *dst, size_t capacity) {
    (void)source; (void)n; (void)dst; (void)capacity;
    return 0;
}

#endif
