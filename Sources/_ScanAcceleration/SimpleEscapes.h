// A string's last step read whole when its escapes are all simple: the
// copying scan's step (ByteRuns.c, `SCAN_JSON_STRING_STORING`) that holds
// the closing quote, with every backslash before it starting a one-letter
// escape other than `\\` (`\"`, `\/`, `\n`, `\t`, `\r`, `\b`, `\f`). Static
// inline, for ByteRuns.c alone: a header of its own because dropping bytes
// by mask is a concept of its own.
//
// Why: a tool call's input arrives as JSON inside a JSON string, so a
// 16-byte delta of it carries about three `\"`. Handled one by one, each
// escape cost a trip through the step's loop (find it, decode its letter,
// store the rest of the step again one place back): about 40 instructions,
// more than the rest of the string. Here the escapes cost nothing each:
// the step's bytes up to the quote go out in 8-byte groups, each group's
// backslashes dropped by one byte shuffle (`left_pack`) chosen by the
// group's 8 bits of the backslash mask. Only letters that decode to
// another byte (`n` to LF, ...) are then written one by one. Only the
// scan a caller picks for strings dense in escapes tries this
// (`_scan_json_string_copying_escaped_direct`): in text deltas, about one
// escape in a hundred bytes, a try at each step cost more than it saved
// (+4% of their instructions).
//
// Worked example, the step `{\"id\": 7}"` and more, from j = 0, d = 0:
// backslashes at 1 and 5, so letters at 2 and 6, both quotes; the first
// quote that is no letter, at 11, closes. Bits 1 and 5 are dropped from
// group 0 (bytes 0-7), which shuffles to `{"id":` and 2 scratch bytes; 6
// are kept, so group 1 (bytes 8-15) goes out at 6: ` 7}"` and scratch.
// Written: 11 - 2 = 9 bytes, `{"id": 7}`; the string ends at 12.

#ifndef SCAN_ACCELERATION_SIMPLE_ESCAPES_H
#define SCAN_ACCELERATION_SIMPLE_ESCAPES_H

#include <stddef.h>
#include <stdint.h>

#include "Escapes.h"

#if defined(__SSE2__) && defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

/// Entry m: the byte shuffle that moves the bytes of an 8-byte group
/// whose bits are clear in m to the group's front, in order (the other
/// lanes are zeroed; they are scratch). Filled as the library loads.
static uint64_t left_pack[256];

__attribute__((constructor)) static void fill_left_pack(void) {
    for (unsigned m = 0; m < 256; m++) {
        uint64_t entry = 0;
        unsigned kept = 0;
        for (unsigned b = 0; b < 8; b++) {
            if (!(m >> b & 1)) entry |= (uint64_t)b << (8 * kept++);
        }
        for (; kept < 8; kept++) entry |= (uint64_t)0x80 << (8 * kept);
        left_pack[m] = entry;
    }
}

/// Where the backslashes of the `width` (32 or 64) bytes at `p` are.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) uint64_t backslashes_of(
    const uint8_t *p, size_t width) {
    __m256i backslash = _mm256_set1_epi8('\\');
    uint64_t low = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)p), backslash));
    if (width <= 32) return low;
    uint64_t upper = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(p + 32)), backslash));
    return upper << 32 | low;
}

/// Reads the string whose step of `width` bytes (32 or 64) starts at p[j]
/// and is stored at out[j + d...] (output index = input index + d, modulo
/// 2^64), when the step holds the closing quote and every special byte
/// before it is the backslash of a simple escape (one at least), with no
/// UTF-8 error (`errors`, the step's, as the caller computed them) up to
/// the quote: writes the contents from out[j + d] on, sets `*end`
/// and `*written`, and returns 1. Otherwise returns 0 with nothing the
/// caller's step loop relies on changed: the bytes before the first
/// special byte are as the step stored them, and the loop reads the step
/// from there.
///
/// Needs p[j..<j + width] and room for out[j + d..<j + d + width], as the
/// step loop has: every 8-byte group load and store lies within them.
///
/// - Complexity: O(width / 8) plus one store per escape that decodes to
///   another byte.
__attribute__((target("avx2,popcnt"))) static inline __attribute__((always_inline)) int read_simple_escapes(
    size_t width, const uint8_t *p, size_t j, size_t d, uint8_t *out, uint64_t special, uint64_t quotes,
    uint64_t errors, size_t *end, size_t *written) {
    uint64_t backslashes = backslashes_of(p + j, width);
    // The letter after each backslash; a quote that is not one closes.
    uint64_t letters = backslashes << 1;
    uint64_t closing = quotes & ~letters;
    if (closing == 0) return 0;
    uint64_t quote = closing & (0ull - closing);
    uint64_t before = quote - 1;
    uint64_t dropped = backslashes & before;
    // No escape before the quote (the loop reads that string at once),
    // `\\` (a backslash after one), a control byte, or a UTF-8 error.
    if (dropped == 0 || (backslashes & letters & before) != 0) return 0;
    if ((special & ~quotes & ~backslashes & before) != 0 || (errors & (before | quote)) != 0) return 0;
    // Letters other than a quote: each must be a simple escape's.
    uint64_t decoded = letters & before & ~quotes;
    for (uint64_t rest = decoded; rest != 0; rest &= rest - 1) {
        uint8_t letter = p[j + (size_t)__builtin_ctzll(rest)];
        if (letter >= 128 || escaped_byte[letter] == 0) return 0;
    }
    size_t length = (size_t)__builtin_ctzll(quote);
    size_t w = j + d;
    for (size_t g = 0; g < length; g += 8) {
        unsigned m = (unsigned)(dropped >> g) & 0xFF;
        __m128i group = _mm_loadl_epi64((const __m128i *)(p + j + g));
        __m128i shuffle = _mm_loadl_epi64((const __m128i *)&left_pack[m]);
        _mm_storel_epi64((__m128i *)(out + w), _mm_shuffle_epi8(group, shuffle));
        w += 8 - (size_t)__builtin_popcount(m);
    }
    // Letters that stand for another byte, at their places after the drop.
    for (uint64_t rest = decoded; rest != 0; rest &= rest - 1) {
        unsigned at = (unsigned)__builtin_ctzll(rest);
        size_t place = j + d + at - (size_t)__builtin_popcountll(dropped & ((1ull << at) - 1));
        out[place] = escaped_byte[p[j + at]];
    }
    *end = j + length + 1;
    *written = j + length + d - (size_t)__builtin_popcountll(dropped);
    return 1;
}

#endif

#endif
