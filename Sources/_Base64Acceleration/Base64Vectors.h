// The AVX2 pieces of the base64 decoding, shared by the library's C files
// and not exported: the validity test, the block decode (Base64Blocks.c
// says how both work) and the run up to the first byte outside the
// alphabet. Each is `static inline` with the AVX2 target, so it runs only
// where a caller has read `_base64_avx2` first.
#ifndef BASE64_VECTORS_H
#define BASE64_VECTORS_H
#include <stddef.h>
#include <stdint.h>

/// Whether AVX2 runs here (set as the library loads); 0 off x86_64.
extern int _base64_avx2 __attribute__((visibility("hidden")));

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

/// Nonzero bytes where `in` holds a byte outside the alphabet ('=' included).
__attribute__((target("avx2"))) static inline __m256i outside_alphabet(__m256i in) {
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
__attribute__((target("avx2"))) static inline __m256i decode32(__m256i in) {
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
__attribute__((target("avx2"))) static inline unsigned outside_mask(__m256i bad) {
    return ~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(bad, _mm256_setzero_si256()));
}

/// Where the alphabet ends at or after `from` (n when it does not; `from`
/// when n < 32, nothing looked at): 32 bytes per test, the last window
/// overlapping the one before so that no load passes `n`.
__attribute__((target("avx2"))) static inline size_t alphabet_end_avx2(const uint8_t *src, size_t from, size_t n) {
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

/// Decodes whole 32-character blocks of the alphabet at the start of
/// src[0..<n] into dst[0..<capacity], up to the first block that holds a
/// byte outside the alphabet ('=' included), and sets `*outside` to that
/// byte's offset (n when no block held one). Block k reads
/// src[32k..<32k+32] and stores dst[24k..<24k+32]. Returns the characters
/// decoded, a multiple of 32.
__attribute__((target("avx2"))) static inline size_t decode_blocks_avx2(
    const uint8_t *src, size_t n, uint8_t *dst, size_t capacity, size_t *outside) {
    // n / 32 blocks fit the input, (capacity - 32) / 24 + 1 the room.
    size_t blocks = n / 32, room = capacity >= 32 ? (capacity - 32) / 24 + 1 : 0;
    if (room < blocks) blocks = room;
    *outside = n;
    size_t i = 0;
    for (size_t k = 0; k < blocks; k++, i += 32) {
        __m256i in = _mm256_loadu_si256((const __m256i *)(src + i));
        __m256i bad = outside_alphabet(in);
        if (!_mm256_testz_si256(bad, bad)) {
            *outside = i + (size_t)__builtin_ctz(outside_mask(bad));
            break;
        }
        _mm256_storeu_si256((__m256i *)(dst + k * 24), decode32(in));
    }
    return i;
}

/// Decodes the whole groups of the alphabet at the start of src[0..<n], up
/// to the first byte outside it ('=' counts as outside), into dst[0..<capacity],
/// and sets `*stop`: every byte before it is in the alphabet, and it is
/// that first other byte's offset (or n) unless n < 32. Returns the
/// characters decoded (a multiple of 4, at most `*stop`); the bytes
/// written are that count / 4 * 3. The caller goes on from there.
__attribute__((target("avx2"))) static inline size_t decode_run_avx2(
    const uint8_t *src, size_t n, uint8_t *dst, size_t capacity, size_t *stop) {
    size_t outside = n;
    size_t i = decode_blocks_avx2(src, n, dst, capacity, &outside);
    size_t end = outside < n ? outside : alphabet_end_avx2(src, i, n);
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

#endif
#endif
