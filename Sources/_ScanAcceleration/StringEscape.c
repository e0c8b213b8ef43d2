// Writing a JSON string's contents a window at a time: the encoder's
// counterpart of the string scans in ByteRuns.c.
//
// Each window of 16 bytes (32 with AVX2) is stored to its place in the
// output as it is loaded, then its masks say where its first special byte
// is (StringWindows.h): the bytes before it stay, the special is written as
// its escape over what the store put after them, and the next window is
// loaded from the byte after it. A window without a special byte is kept
// whole. High bytes are checked as UTF-8 in the same window
// (UTF8Windows.h); at the first window whose check fails at or before its
// first special byte the function returns, and the caller writes from
// there one character at a time (replacing what is ill-formed). It
// returns, too, where less than a window of input or of room is left, so
// every load stays in the input and every store in the output.
//
// Worked example, 16-byte windows, the input `say "hi"⏎` and 20 more
// bytes: the window at 0 is stored at 0; its first special is the quote at
// 4, so 4 bytes stay, `\"` is written at 4, and the window at 5 is stored
// at 6; its quote at 7 (input) leaves `hi` at 6, `\"` at 8; the window at
// 8 is stored at 10, and its LF at 8 becomes `\n` at 10.

#include "_ScanAcceleration.h"
#include "CPUFeatures.h"
#include "GeneralPathSwitch.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>

#include "StringWindows.h"
#include "UTF8Windows.h"

/// Writes the escape of the special byte `b` (quote, backslash or control
/// byte) at out[o...], which has room for six bytes; returns its length.
static inline __attribute__((always_inline)) size_t write_escape(uint8_t b, uint8_t *out, size_t o) {
    static const char hex[] = "0123456789abcdef";
    uint8_t letter;
    switch (b) {
    case '"': case '\\': letter = b; break;
    case 0x0A: letter = 'n'; break;
    case 0x0D: letter = 'r'; break;
    case 0x09: letter = 't'; break;
    case 0x08: letter = 'b'; break;
    case 0x0C: letter = 'f'; break;
    default:
        memcpy(out + o, "\\u00", 4);
        out[o + 4] = (uint8_t)hex[b >> 4];
        out[o + 5] = (uint8_t)hex[b & 0xF];
        return 6;
    }
    out[o] = '\\';
    out[o + 1] = letter;
    return 2;
}

/// The body of `_json_escape_windows` in windows of W bytes (file
/// comment). `carried`: the last window left a character open, so the
/// next is checked with the bytes before it. Where a window's check fails,
/// the caller resumes at the lead of the character open across the window
/// (kept out of what was written), or at the window's start.
#define JSON_ESCAPE_WINDOWS(W, VEC, LOADU, STOREU, MASKS, ERRORS)                                   \
    do {                                                                                          \
        size_t start = *i, j = start, o = 0;                                                      \
        int carried = 0;                                                                          \
        while (n - j >= (W) && capacity - o >= (W) + 6) {                                         \
            uint32_t special, high;                                                               \
            STOREU((VEC *)(out + o), LOADU((const VEC *)(p + j)));                                \
            MASKS(p + j, &special, &high);                                                        \
            if (high | (uint32_t)carried) {                                                       \
                uint64_t errors = ERRORS(p, j, 0, carried);                                       \
                if (errors & through(special)) {                                                  \
                    size_t back = carried ? open_character_back(p, j, j - start) : 0;             \
                    *i = j - back;                                                                \
                    return o - back;                                                              \
                }                                                                                 \
                carried = leaves_character_open(p, j + (W));                                      \
            }                                                                                     \
            if (!special) {                                                                       \
                j += (W);                                                                         \
                o += (W);                                                                         \
                continue;                                                                         \
            }                                                                                     \
            size_t k = (size_t)__builtin_ctz(special);                                            \
            o += k;                                                                               \
            o += write_escape(p[j + k], out, o);                                                  \
            j += k + 1;                                                                           \
            carried = 0;                                                                          \
        }                                                                                         \
        size_t back = carried ? open_character_back(p, j, j - start) : 0;                         \
        *i = j - back;                                                                            \
        return o - back;                                                                          \
    } while (0)

static size_t escape16(const uint8_t *p, size_t *i, size_t n, uint8_t *out, size_t capacity) {
    JSON_ESCAPE_WINDOWS(16, __m128i, _mm_loadu_si128, _mm_storeu_si128, string_masks16, window_errors16);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx2"))) static size_t escape32(const uint8_t *p, size_t *i, size_t n, uint8_t *out, size_t capacity) {
    JSON_ESCAPE_WINDOWS(32, __m256i, _mm256_loadu_si256, _mm256_storeu_si256, string_masks32, window_errors32);
}
#endif

#endif

/// The general path, and CPUs without SSE2: nothing is written here, the
/// caller writes every character.
static size_t escape_none(const uint8_t *p, size_t *i, size_t n, uint8_t *out, size_t capacity) {
    (void)p, (void)i, (void)n, (void)out, (void)capacity;
    return 0;
}

#if defined(__SSE2__)
static size_t (*escape_chosen)(const uint8_t *, size_t *, size_t, uint8_t *, size_t) = escape16;
#else
static size_t (*escape_chosen)(const uint8_t *, size_t *, size_t, uint8_t *, size_t) = escape_none;
#endif

__attribute__((constructor)) static void choose_escape(void) {
    if (general_path_requested()) {
        escape_chosen = escape_none;
        return;
    }
#if defined(__SSE2__) && defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    if (_scan_cpu_runs_avx2()) escape_chosen = escape32;
#endif
}

size_t _json_escape_windows(const uint8_t *p, size_t *i, size_t n, uint8_t *out, size_t capacity) {
    if (p == NULL || i == NULL || out == NULL || *i >= n) return 0;
    return escape_chosen(p, i, n, out, capacity);
}

size_t _json_escape_windows_16(const uint8_t *p, size_t *i, size_t n, uint8_t *out, size_t capacity) {
    if (p == NULL || i == NULL || out == NULL || *i >= n) return 0;
#if defined(__SSE2__)
    return escape16(p, i, n, out, capacity);
#else
    return escape_none(p, i, n, out, capacity);
#endif
}
