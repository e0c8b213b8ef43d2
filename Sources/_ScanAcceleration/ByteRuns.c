// JSON string scans: where a string's plain run ends, and whole strings.
//
// A window of 16 bytes (32 with AVX2, chosen once as the library loads)
// is one unaligned load and three compares: '"' or '\\', a signed compare
// below 0x20 (which also catches 0x80 and above), and pmovmskb of the
// vector itself for the high bytes. Two masks come out: `special` (quote,
// backslash, control byte) and `high` (bytes 0x80 and above). A window
// with neither is skipped whole. A window with high bytes is checked as
// UTF-8 in the same registers, without a branch per character: each byte
// is compared with the three before it (the window shifted by one, two,
// three places), and it is an error where
// - a continuation byte (80..BF) comes where none is due, or none comes
//   where one is due (after any lead, two after E0..F4, three after F0..F4);
// - the byte is C0, C1 or F5..FF, which UTF-8 never uses;
// - a second byte is outside its lead's range (E0 A0..BF, ED 80..9F,
//   F0 90..BF, F4 80..8F: no overlong forms, surrogates or code points past
//   U+10FFFF).
// An error at or before the first special byte ends the fast path: the run
// scan goes on one byte at a time from the last whole character, which
// says exactly where the run stops; the whole-string read declines. A
// character left open at a window's end makes the next window checked too,
// with the three bytes before it as context. The byte loop is the oracle
// the tests hold both window widths to. The last window is the one that
// ends at n, its bytes already seen shifted out, so no load leaves
// p[0..<n]; inputs shorter than a window take the byte loop.
//
// Worked example, `_scan_json_string_run` over the bytes
// `caf\xC3\xA9 \"x" and more` from 0, 16-byte windows: the first window's
// `high` has bits 3 and 4 (C3 A9), `special` bit 6 (the backslash). The
// UTF-8 check: A9 is a continuation due after the lead C3, and no byte
// breaks a rule, so no error bit is set at or before 6. The run ends at 6,
// the backslash; the caller reads the escape. `_scan_json_string` does that
// in one loop: it copies each run and decodes each escape into the
// caller's buffer until the closing quote. Its copying form
// (`_scan_json_string_copying`) writes a string without escapes too, for a
// caller whose buffer is the string's final place, and where input and
// room allow it stores each window at its output place as it loads it
// instead of copying runs (`SCAN_JSON_STRING_STORING`). The escape's
// decoding and the bodies of both, macros expanded here once per window
// width, are in StringCopying.h.

#include "_ScanAcceleration.h"
#include "CPUFeatures.h"
#include "GeneralPathSwitch.h"

#include <string.h>

/// Length of the well-formed UTF-8 sequence led by p[i] that ends by n, or
/// 0 when the sequence is ill-formed or cut (the caller's slow path then
/// says which, with its position).
static inline size_t well_formed_length(const uint8_t *p, size_t i, size_t n) {
    uint8_t lead = p[i];
    size_t length;
    uint8_t low = 0x80, high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) low = 0xA0;
        if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) low = 0x90;
        if (lead == 0xF4) high = 0x8F;
    } else {
        return 0;
    }
    if (n - i < length) return 0;
    if (p[i + 1] < low || p[i + 1] > high) return 0;
    for (size_t k = 2; k < length; k++) {
        if (p[i + k] < 0x80 || p[i + k] > 0xBF) return 0;
    }
    return length;
}

/// The plain-run scan one byte at a time: inputs under one window, and
/// CPUs without SSE2.
static inline size_t first_string_stop_bytes(const uint8_t *p, size_t i, size_t n) {
    while (i < n) {
        uint8_t b = p[i];
        if (b == '"' || b == '\\' || b < 0x20) return i;
        if (b < 0x80) {
            i++;
            continue;
        }
        size_t length = well_formed_length(p, i, n);
        if (length == 0) return i;
        i += length;
    }
    return n;
}

#if defined(__SSE2__)
#include <emmintrin.h>

#include "StringWindows.h"
#include "UTF8Windows.h"

/// Where a run scan that met ill-formed or cut UTF-8 at or after `j` goes
/// on one byte at a time: from the lead of the character open across `j`
/// when `open` (the bytes from `i` to that lead are well formed and plain),
/// else from `j`. The byte loop then says exactly where the run ends.
static inline size_t first_string_stop_from(const uint8_t *p, size_t i, size_t j, size_t n, int open) {
    size_t back = open ? open_character_back(p, j, j - i) : 0;
    return first_string_stop_bytes(p, j - back, n);
}

/// The body of `copy_run16` and `copy_run32`: copies `len` bytes from
/// p[from...] to out[w...] in whole windows of W bytes (vector type VEC,
/// moved by LOADU and STOREU) when both sides have room for the last one
/// (the bytes written past `len` are scratch the caller never reads: it
/// reads `written` bytes), else by memcpy. A run between escapes is short,
/// and a libc call for each cost more than the copy.
#define COPY_RUN_IN_WINDOWS(W, VEC, LOADU, STOREU)                                             \
    do {                                                                                       \
        size_t whole = (len + ((W) - 1)) & ~(size_t)((W) - 1);                                 \
        if (whole <= 64 && n - from >= whole && capacity - w >= whole) {                       \
            for (size_t m = 0; m < whole; m += (W))                                            \
                STOREU((VEC *)(out + w + m), LOADU((const VEC *)(p + from + m)));              \
            return;                                                                            \
        }                                                                                      \
        memcpy(out + w, p + from, len);                                                        \
    } while (0)

static inline __attribute__((always_inline)) void copy_run16(
    uint8_t *out, size_t w, size_t capacity, const uint8_t *p, size_t from, size_t len, size_t n) {
    COPY_RUN_IN_WINDOWS(16, __m128i, _mm_loadu_si128, _mm_storeu_si128);
}

/// The first index in [i, n) that ends a plain run (see the header), for
/// n >= W, in windows of W bytes whose masks `MASKS` and UTF-8 errors
/// `ERRORS` computes; the last window is the one ending at n, its bytes
/// before i shifted out. `open`: the last window left a character open,
/// so the next is checked even without high bytes, with the bytes before
/// it as context.
#define FIRST_STRING_STOP(p, i, n, W, MASKS, ERRORS)                                        \
    do {                                                                                  \
        uint32_t special, high;                                                           \
        size_t j = (i);                                                                   \
        int carried = 0;                                                                     \
        while ((n) - j >= (W)) {                                                          \
            MASKS((p) + j, &special, &high);                                              \
            if ((special | high | (uint32_t)carried) == 0) {                                 \
                j += (W);                                                                 \
                continue;                                                                 \
            }                                                                             \
            if (high | (uint32_t)carried) {                                                  \
                if (ERRORS((p), j, (i), carried) & through(special))                         \
                    return first_string_stop_from((p), (i), j, (n), carried);                \
                carried = leaves_character_open((p), j + (W));                               \
            }                                                                             \
            if (special) return j + (size_t)__builtin_ctz(special);                       \
            j += (W);                                                                     \
        }                                                                                 \
        /* A character the last whole window left open, cut by the end. */                \
        if (j == (n) && carried) return first_string_stop_from((p), (i), j, (n), 1);      \
        if (j < (n)) {                                                                    \
            size_t at = (n) - (W);                                                        \
            MASKS((p) + at, &special, &high);                                             \
            special >>= j - at;                                                           \
            high >>= j - at;                                                              \
            if ((special | high | (uint32_t)carried) == 0) return (n);                       \
            if (high | (uint32_t)carried) {                                                  \
                /* Bytes before `at`: read when a character is open (any in */            \
                /* p[0..<n] will do, the bits before j are shifted out). */               \
                int loads = carried && at >= 3;                                           \
                uint64_t errors = (uint64_t)(ERRORS((p), at, (i), loads) >> (j - at));     \
                /* An error at or before the stop, or a character cut by n. */             \
                if ((errors & through(special)) || (!special && leaves_character_open((p), (n)))) \
                    return first_string_stop_from((p), (i), j, (n), carried);                \
            }                                                                             \
            if (special) return j + (size_t)__builtin_ctz(special);                       \
        }                                                                                 \
        return (n);                                                                       \
    } while (0)

static inline __attribute__((always_inline)) size_t first_string_stop16(const uint8_t *p, size_t i, size_t n) {
    if (n < 16) return first_string_stop_bytes(p, i, n);
    FIRST_STRING_STOP(p, i, n, 16, string_masks16, window_errors16);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

/// Whether the 32-byte windows run, set once as the library loads. Were
/// the constructor not run, 0 sends every call to the 16-byte windows.
static int avx2_usable = 0;

__attribute__((constructor)) static void ask_for_avx2(void) {
    // The switch is read here too: constructors of two files run in no
    // set order, and with the general path the windows stay unused.
    avx2_usable = !general_path_requested() && _scan_cpu_runs_avx2();
}

/// `copy_run16` in 32-byte windows.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void copy_run32(
    uint8_t *out, size_t w, size_t capacity, const uint8_t *p, size_t from, size_t len, size_t n) {
    COPY_RUN_IN_WINDOWS(32, __m256i, _mm256_loadu_si256, _mm256_storeu_si256);
}

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) size_t first_string_stop32(
    const uint8_t *p, size_t i, size_t n) {
    if (n < 32) return first_string_stop16(p, i, n);
    FIRST_STRING_STOP(p, i, n, 32, string_masks32, window_errors32);
}
#endif

#endif

#include "StringCopying.h"

#if defined(__SSE2__)

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

static int scan_json_string16(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    if (n < 16) SCAN_JSON_STRING(first_string_stop_bytes, 0);
    SCAN_JSON_STRING_WINDOWS(16, string_masks16, window_errors16, copy_run16, 0);
}

static int copying16(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    if (i >= n) return _scan_string_declined;
    if (n < 16) SCAN_JSON_STRING(first_string_stop_bytes, 1);
    if (out != NULL) {
        size_t j = i, d = (size_t)0 - i;
        int carried = 0;
        SCAN_JSON_STRING_STORING(16, store_and_mask16, store16, step_errors16);
    }
    SCAN_JSON_STRING_WINDOWS(16, string_masks16, window_errors16, copy_run16, 1);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx2"))) static size_t string_run32(const uint8_t *p, size_t i, size_t n) {
    return first_string_stop32(p, i, n);
}
#endif

size_t _scan_json_string_run(const uint8_t *p, size_t i, size_t n) {
    if (p == NULL || i >= n) return n;
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    if (avx2_usable) return string_run32(p, i, n);
#endif
    if (__builtin_expect(_scan_general_path_only, 0)) return first_string_stop_bytes(p, i, n);
    return first_string_stop16(p, i, n);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
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

__attribute__((target("avx2"))) static int scan_json_string32(
    const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    if (n < 32) return scan_json_string16(p, i, n, out, capacity, end, written);
    SCAN_JSON_STRING_WINDOWS(32, string_masks32, window_errors32, copy_run32, 0);
}

__attribute__((target("avx2"))) static int copying32(
    const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    if (i >= n) return _scan_string_declined;
    if (n < 32) return copying16(p, i, n, out, capacity, end, written);
    if (out != NULL) {
        // 64-byte steps while input and room allow, then 32 from where they stopped.
        size_t j = i, d = (size_t)0 - i;
        int carried = 0;
        SCAN_JSON_STRING_STORING(64, store_and_mask64, store64, step_errors64);
        SCAN_JSON_STRING_STORING(32, store_and_mask32, store32, step_errors32);
    }
    SCAN_JSON_STRING_WINDOWS(32, string_masks32, window_errors32, copy_run32, 1);
}
#endif

int _scan_json_string(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    if (p == NULL || end == NULL || written == NULL || i >= n) return _scan_string_declined;
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    if (avx2_usable) return scan_json_string32(p, i, n, out, capacity, end, written);
#endif
    if (__builtin_expect(_scan_general_path_only, 0)) return _scan_json_string_bytes(p, i, n, out, capacity, end, written);
    return scan_json_string16(p, i, n, out, capacity, end, written);
}

#else

size_t _scan_json_string_run(const uint8_t *p, size_t i, size_t n) {
    if (p == NULL || i >= n) return n;
    return first_string_stop_bytes(p, i, n);
}

int _scan_json_string(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    return _scan_json_string_bytes(p, i, n, out, capacity, end, written);
}

#endif

static int scan_json_string_bytes(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    SCAN_JSON_STRING(first_string_stop_bytes, 0);
}

static int copying_bytes(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    if (i >= n) return _scan_string_declined;
    SCAN_JSON_STRING(first_string_stop_bytes, 1);
}

int _scan_json_string_bytes(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    if (p == NULL || end == NULL || written == NULL || i >= n) return _scan_string_declined;
    return scan_json_string_bytes(p, i, n, out, capacity, end, written);
}

size_t _scan_json_string_run_16(const uint8_t *p, size_t i, size_t n) {
    if (p == NULL || i >= n) return n;
#if defined(__SSE2__)
    return first_string_stop16(p, i, n);
#else
    return first_string_stop_bytes(p, i, n);
#endif
}

size_t _scan_json_string_run_bytes(const uint8_t *p, size_t i, size_t n) {
    if (p == NULL || i >= n) return n;
    return first_string_stop_bytes(p, i, n);
}

int _scan_json_string_16(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
#if defined(__SSE2__)
    if (p == NULL || end == NULL || written == NULL || i >= n) return _scan_string_declined;
    return scan_json_string16(p, i, n, out, capacity, end, written);
#else
    return _scan_json_string_bytes(p, i, n, out, capacity, end, written);
#endif
}

// `_scan_json_string_direct`'s entries: the same scans without the checks
// for null pointers, which its callers rule out, called through a pointer
// chosen once as the library loads instead of through `_scan_json_string`'s
// dispatch: a delta's string is short, so a call's fixed part counts.

static int direct_bytes(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    if (i >= n) return _scan_string_declined;
    return scan_json_string_bytes(p, i, n, out, capacity, end, written);
}

#if defined(__SSE2__)
static int direct16(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    if (i >= n) return _scan_string_declined;
    return scan_json_string16(p, i, n, out, capacity, end, written);
}
_scan_json_string_fn _scan_json_string_chosen = direct16;
_scan_json_string_fn _scan_json_string_copying_chosen = copying16;
#else
_scan_json_string_fn _scan_json_string_chosen = direct_bytes;
_scan_json_string_fn _scan_json_string_copying_chosen = copying_bytes;
#endif

int _scan_json_string_copying_16(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    if (p == NULL || end == NULL || written == NULL) return _scan_string_declined;
#if defined(__SSE2__)
    return copying16(p, i, n, out, capacity, end, written);
#else
    return copying_bytes(p, i, n, out, capacity, end, written);
#endif
}

int _scan_json_string_copying_bytes(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    if (p == NULL || end == NULL || written == NULL) return _scan_string_declined;
    return copying_bytes(p, i, n, out, capacity, end, written);
}

#if defined(__SSE2__) && defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx2"))) static int direct32(
    const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    if (i >= n) return _scan_string_declined;
    return scan_json_string32(p, i, n, out, capacity, end, written);
}
#endif

__attribute__((constructor)) static void choose_direct_string_scan(void) {
    if (general_path_requested()) {
        _scan_json_string_chosen = direct_bytes;
        _scan_json_string_copying_chosen = copying_bytes;
        return;
    }
#if defined(__SSE2__) && defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    if (_scan_cpu_runs_avx2()) {
        _scan_json_string_chosen = direct32;
        _scan_json_string_copying_chosen = copying32;
    }
#endif
}
