// The copying string scan's fast path: a string read in steps of 16, 32
// or 64 bytes, each stored at its place in the output as it is loaded
// (`SCAN_JSON_STRING_STORING`), and the steps' loads, stores and masks.
// Static inline, for ByteRuns.c alone, whose file comment says what the
// masks and the UTF-8 checks are; a header of its own because storing
// ahead of the escapes is a concept of its own.

#ifndef SCAN_ACCELERATION_STORING_STEPS_H
#define SCAN_ACCELERATION_STORING_STEPS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>

#include "_ScanAcceleration.h"
#include "Escapes.h"
#include "StringWindows.h"
#include "UTF8Windows.h"

/// The fast path of `_scan_json_string_copying` in steps of W bytes: each
/// step is stored to its place in `out` as it is loaded (`STORE_AND_MASK`,
/// which gives its masks, quotes included), so a run costs no copy of its
/// own, and an escape stores the rest of its step again at the place the
/// escape shifted it to (`STORE`). `ERRORS` gives the step's UTF-8 errors.
/// `d` maps an input index of the current run to its output index (x + d,
/// modulo 2^64). Every load needs two steps of input from the step's
/// start, every store a step of room (bytes stored past the string's end
/// are scratch, as in `COPY_RUN_IN_WINDOWS`); where either runs short the
/// loop ends with `j`, `d` and `carried` as they are, so a loop of smaller
/// steps can go on from there, and after the last the caller starts the
/// string over run by run (`SCAN_JSON_STRING_WINDOWS`), which needs
/// neither. Worked example, `ab\ncd"` and more from 0, W = 16: the window
/// at 0 is stored at 0; the backslash at 2 writes LF at 2, `d` becomes
/// -1, and the window's rest, loaded from 4, is stored at 3; the quote at
/// 6 ends the string: 6 - 1 = 5 bytes written, `ab⏎cd`.
#define SCAN_JSON_STRING_STORING(W, STORE_AND_MASK, STORE, ERRORS)                                   \
    while (n - j >= 2 * (W) && j + d <= capacity && capacity - (j + d) >= (W)) {                      \
        uint64_t special, high, quotes, errors = 0;                                                  \
        STORE_AND_MASK(p + j, out + j + d, &special, &high, &quotes);                                \
        if (high | (uint64_t)carried) {                                                              \
            errors = ERRORS(p, j, i, carried, high);                                                 \
            /* Only a high byte in the last three places can open one. */                           \
            carried = (high >> ((W) - 3)) != 0 && leaves_character_open(p, j + (W));                  \
        }                                                                                            \
        size_t next_step = j + (W);                                                                  \
        for (;;) {                                                                                   \
            if (errors != 0 && (errors & through(special)) != 0) return _scan_string_declined;        \
            if (!special) break;                                                                     \
            size_t k = j + (size_t)__builtin_ctzll(special);                                         \
            /* From the mask, not the byte: the branch that guesses wrong */                         \
            /* once a string is then decided without waiting for a load. */                          \
            if (quotes & special & (0ull - special)) {                                               \
                *end = k + 1;                                                                        \
                *written = k + d;                                                                    \
                return _scan_string_read;                                                            \
            }                                                                                        \
            if (p[k] != '\\') return _scan_string_declined;                                           \
            size_t w = k + d;                                                                        \
            /* Room for the escape's bytes and the step stored after it. */                          \
            if (w > capacity || capacity - w < 3 + (W)) {                                            \
                next_step = n;                                                                       \
                break;                                                                               \
            }                                                                                        \
            size_t next = k + 1;                                                                     \
            if (!unescape(p, &next, n, out, &w)) return _scan_string_declined;                       \
            d = w - next;                                                                            \
            if (next >= j + (W)) {                                                                   \
                /* The escape ran on past the step: it ends on an ASCII byte. */                      \
                next_step = next;                                                                    \
                carried = 0;                                                                         \
                break;                                                                               \
            }                                                                                        \
            STORE(out + next + d, p + next);                                                         \
            special &= ~0ull << (next - j);                                                          \
        }                                                                                            \
        j = next_step;                                                                               \
    }

/// One 16-byte step of `SCAN_JSON_STRING_STORING`: the window at `from`
/// stored at `to`, and its masks.
static inline __attribute__((always_inline)) void store_and_mask16(
    const uint8_t *from, uint8_t *to, uint64_t *special, uint64_t *high, uint64_t *quotes) {
    __m128i v = _mm_loadu_si128((const __m128i *)from);
    _mm_storeu_si128((__m128i *)to, v);
    uint32_t s, h, q;
    string_masks_of16(v, &s, &h, &q);
    *special = s;
    *high = h;
    *quotes = q;
}

static inline __attribute__((always_inline)) void store16(uint8_t *to, const uint8_t *from) {
    _mm_storeu_si128((__m128i *)to, _mm_loadu_si128((const __m128i *)from));
}

static inline __attribute__((always_inline)) uint64_t step_errors16(
    const uint8_t *p, size_t j, size_t i, int carried, uint64_t high) {
    (void)high;
    return window_errors16(p, j, i, carried);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

/// `store_and_mask16` for 32-byte steps.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void store_and_mask32(
    const uint8_t *from, uint8_t *to, uint64_t *special, uint64_t *high, uint64_t *quotes) {
    __m256i v = _mm256_loadu_si256((const __m256i *)from);
    _mm256_storeu_si256((__m256i *)to, v);
    uint32_t s, h, q;
    string_masks_of32(v, &s, &h, &q);
    *special = s;
    *high = h;
    *quotes = q;
}

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void store32(uint8_t *to, const uint8_t *from) {
    _mm256_storeu_si256((__m256i *)to, _mm256_loadu_si256((const __m256i *)from));
}

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) uint64_t step_errors32(
    const uint8_t *p, size_t j, size_t i, int carried, uint64_t high) {
    (void)high;
    return window_errors32(p, j, i, carried);
}

/// A 64-byte step: two 32-byte windows, their masks in one word. A delta's
/// string takes two steps where it took four windows, so half as many
/// branches on what a window holds, each of which guesses wrong as often
/// as text changes.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void store_and_mask64(
    const uint8_t *from, uint8_t *to, uint64_t *special, uint64_t *high, uint64_t *quotes) {
    __m256i low = _mm256_loadu_si256((const __m256i *)from);
    __m256i upper = _mm256_loadu_si256((const __m256i *)(from + 32));
    _mm256_storeu_si256((__m256i *)to, low);
    _mm256_storeu_si256((__m256i *)(to + 32), upper);
    uint32_t s0, h0, q0, s1, h1, q1;
    string_masks_of32(low, &s0, &h0, &q0);
    string_masks_of32(upper, &s1, &h1, &q1);
    *special = (uint64_t)s1 << 32 | s0;
    *high = (uint64_t)h1 << 32 | h0;
    *quotes = (uint64_t)q1 << 32 | q0;
}

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void store64(uint8_t *to, const uint8_t *from) {
    store32(to, from);
    store32(to + 32, from + 32);
}

/// The errors of both windows of a 64-byte step, each checked only when a
/// high byte can touch it: the upper one reads the three bytes before it
/// (its context), so high bytes from place 29 on count for it.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) uint64_t step_errors64(
    const uint8_t *p, size_t j, size_t i, int carried, uint64_t high) {
    uint64_t errors = 0;
    if ((uint32_t)high | (uint32_t)carried) errors = window_errors32(p, j, i, carried);
    if (high >> 29) errors |= (uint64_t)window_errors32(p, j + 32, i, 1) << 32;
    return errors;
}

#endif

#endif

#endif
