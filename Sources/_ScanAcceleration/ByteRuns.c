// JSON string scans: where a string's plain run ends, and whole strings.
//
// A window of 16 bytes (32 with AVX2, chosen once as the library loads)
// is one unaligned load and three compares: '"' or '\\', a signed compare
// below 0x20 (which also catches 0x80 and above), and pmovmskb of the
// vector itself for the high bytes. Two masks come out: `special` (quote,
// backslash, control byte) and `high` (bytes 0x80 and above). A window
// with neither is skipped whole. Otherwise the multi-byte characters led
// before the first special byte are checked in place against the table
// of well-formed sequences (a character may run into the next window,
// which then starts after it), and the first special byte ends the run.
// The last window is the one that ends at n, its bytes already seen
// shifted out, so no load leaves p[0..<n]; inputs shorter than a window
// take a byte loop.
//
// Worked example, `_scan_json_string_run` over the bytes
// `caf\xC3\xA9 \"x" and more` from 0, 16-byte windows: the first window's
// `high` has bits 3 and 4 (C3 A9), `special` bit 6 (the backslash). C3
// leads a two-byte character whose continuation A9 is in 80..BF: well
// formed. The run ends at 6, the backslash; the caller reads the escape.
// `_scan_json_string` does that in one loop: it copies each run and
// decodes each escape into the caller's buffer until the closing quote.

#include "_ScanAcceleration.h"
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

/// Checks the multi-byte characters whose leads are the bits of `high`
/// (positions relative to `at`) before the window's first special byte.
/// Returns the lead position of the first one that is ill-formed or cut,
/// or SIZE_MAX, and raises `*resume` past the last one that is whole (a
/// character may run on into the next window, whose continuation bytes
/// must not be read as leads).
static inline __attribute__((always_inline)) size_t check_leads(
    const uint8_t *p, size_t at, size_t n, uint32_t high, uint32_t special, size_t *resume) {
    uint32_t before = special ? (special & (0u - special)) - 1 : 0xFFFFFFFFu;
    uint32_t leads = high & before;
    while (leads) {
        unsigned k = (unsigned)__builtin_ctz(leads);
        size_t length = well_formed_length(p, at + k, n);
        if (length == 0) return at + k;
        size_t end = at + k + length;
        if (end > *resume) *resume = end;
        // Its continuation bytes are not leads.
        leads &= k + length >= 32 ? 0 : ~0u << (k + length);
    }
    return SIZE_MAX;
}

/// The masks of one 16-byte window: bit k of `special` where byte k is
/// '"', '\\' or a control byte, of `high` where it is 0x80 or above.
static inline __attribute__((always_inline)) void string_masks16(const uint8_t *p, uint32_t *special, uint32_t *high) {
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    __m128i hits = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
        _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));  // signed: below 0x20, or 0x80 and above
    *high = (uint32_t)_mm_movemask_epi8(v);
    *special = (uint32_t)_mm_movemask_epi8(hits) & ~*high;
}

/// The first index in [i, n) that ends a plain run (see the header), for
/// n >= W, in windows of W bytes whose masks `MASKS` computes; the last
/// window is the one ending at n, its bytes before i shifted out.
#define FIRST_STRING_STOP(p, i, n, W, MASKS)                                              \
    do {                                                                                  \
        uint32_t special, high;                                                           \
        while ((n) - (i) >= (W)) {                                                        \
            MASKS((p) + (i), &special, &high);                                            \
            if ((special | high) == 0) {                                                  \
                (i) += (W);                                                               \
                continue;                                                                 \
            }                                                                             \
            size_t resume = (i) + (W);                                                    \
            if (high) {                                                                   \
                size_t bad = check_leads((p), (i), (n), high, special, &resume);          \
                if (bad != SIZE_MAX) return bad;                                          \
            }                                                                             \
            if (special) return (i) + (size_t)__builtin_ctz(special);                     \
            (i) = resume;                                                                 \
        }                                                                                 \
        if ((i) < (n)) {                                                                  \
            size_t at = (n) - (W);                                                        \
            MASKS((p) + at, &special, &high);                                             \
            special >>= (i) - at;                                                         \
            high >>= (i) - at;                                                            \
            if ((special | high) == 0) return (n);                                        \
            size_t resume = (n);                                                          \
            if (high) {                                                                   \
                size_t bad = check_leads((p), (i), (n), high, special, &resume);          \
                if (bad != SIZE_MAX) return bad;                                          \
            }                                                                             \
            if (special) return (i) + (size_t)__builtin_ctz(special);                     \
        }                                                                                 \
        return (n);                                                                       \
    } while (0)

static inline __attribute__((always_inline)) size_t first_string_stop16(const uint8_t *p, size_t i, size_t n) {
    if (n < 16) return first_string_stop_bytes(p, i, n);
    FIRST_STRING_STOP(p, i, n, 16, string_masks16);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <cpuid.h>
#include <immintrin.h>

/// Whether this CPU and OS run AVX2 code, asked once as the library loads
/// (OSXSAVE and the YMM state in XCR0, then the AVX2 bit). Were the
/// constructor not run, 0 sends every call to the 16-byte windows.
static int avx2_usable = 0;

static int cpu_runs_avx2(void) {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX)) return 0;
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & bit_AVX2) != 0;
}

__attribute__((constructor)) static void ask_for_avx2(void) {
    // The switch is read here too: constructors of two files run in no
    // set order, and with the general path the windows stay unused.
    avx2_usable = !general_path_requested() && cpu_runs_avx2();
}

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void string_masks32(
    const uint8_t *p, uint32_t *special, uint32_t *high) {
    __m256i v = _mm256_loadu_si256((const __m256i *)p);
    __m256i hits = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')), _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\'))),
        _mm256_cmpgt_epi8(_mm256_set1_epi8(0x20), v));  // signed, as above
    *high = (uint32_t)_mm256_movemask_epi8(v);
    *special = (uint32_t)_mm256_movemask_epi8(hits) & ~*high;
}

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) size_t first_string_stop32(
    const uint8_t *p, size_t i, size_t n) {
    if (n < 32) return first_string_stop16(p, i, n);
    FIRST_STRING_STOP(p, i, n, 32, string_masks32);
}
#endif

#endif

static inline int hex_value(uint8_t b) {
    if (b >= '0' && b <= '9') return b - '0';
    if (b >= 'a' && b <= 'f') return b - 'a' + 10;
    if (b >= 'A' && b <= 'F') return b - 'A' + 10;
    return -1;
}

/// Decodes the escape whose backslash is p[*j - 1] (p[*j] is the letter)
/// into out[*w...], which has room for three bytes; advances both, or
/// returns 0 for an escape the caller's general reader must see.
static inline __attribute__((always_inline)) int unescape(const uint8_t *p, size_t *j, size_t n, uint8_t *out, size_t *w) {
    uint8_t e = p[(*j)++];
    switch (e) {
    case '"': case '\\': case '/': out[(*w)++] = e; return 1;
    case 'b': out[(*w)++] = 0x08; return 1;
    case 'f': out[(*w)++] = 0x0C; return 1;
    case 'n': out[(*w)++] = 0x0A; return 1;
    case 'r': out[(*w)++] = 0x0D; return 1;
    case 't': out[(*w)++] = 0x09; return 1;
    case 'u': break;
    default: return 0;
    }
    if (n - *j < 4) return 0;
    int d0 = hex_value(p[*j]), d1 = hex_value(p[*j + 1]), d2 = hex_value(p[*j + 2]), d3 = hex_value(p[*j + 3]);
    if ((d0 | d1 | d2 | d3) < 0) return 0;
    unsigned scalar = (unsigned)(d0 << 12 | d1 << 8 | d2 << 4 | d3);
    if (scalar >= 0xD800 && scalar <= 0xDFFF) return 0;
    *j += 4;
    if (scalar < 0x80) {
        out[(*w)++] = (uint8_t)scalar;
    } else if (scalar < 0x800) {
        out[(*w)++] = (uint8_t)(0xC0 | scalar >> 6);
        out[(*w)++] = (uint8_t)(0x80 | (scalar & 0x3F));
    } else {
        out[(*w)++] = (uint8_t)(0xE0 | scalar >> 12);
        out[(*w)++] = (uint8_t)(0x80 | (scalar >> 6 & 0x3F));
        out[(*w)++] = (uint8_t)(0x80 | (scalar & 0x3F));
    }
    return 1;
}

/// The body of `_scan_json_string` over a plain-run scan `STOP`: one copy
/// per window width, each compiled for its instructions.
#define SCAN_JSON_STRING(STOP)                                                             \
    do {                                                                                   \
        size_t j = STOP(p, i, n);                                                          \
        if (j >= n) return _scan_string_declined;                                          \
        if (p[j] == '"') {                                                                 \
            *end = j + 1;                                                                  \
            *written = SIZE_MAX;                                                           \
            return _scan_string_read;                                                      \
        }                                                                                  \
        /* A control byte, or a character the run could not pass. */                       \
        if (p[j] != '\\') return _scan_string_declined;                                     \
        size_t w = j - i;                                                                  \
        if (out == NULL || w > capacity) return _scan_string_needs_room;                   \
        memcpy(out, p + i, w);                                                             \
        for (;;) {                                                                         \
            /* p[j] is a backslash; an escape writes at most three bytes. */                \
            j++;                                                                           \
            if (j >= n) return _scan_string_declined;                                      \
            if (capacity - w < 3) return _scan_string_needs_room;                          \
            if (!unescape(p, &j, n, out, &w)) return _scan_string_declined;                \
            size_t k = STOP(p, j, n);                                                      \
            if (k >= n) return _scan_string_declined;                                      \
            if (k - j > capacity - w) return _scan_string_needs_room;                      \
            memcpy(out + w, p + j, k - j);                                                 \
            w += k - j;                                                                    \
            j = k;                                                                         \
            if (p[j] == '"') {                                                             \
                *end = j + 1;                                                              \
                *written = w;                                                              \
                return _scan_string_read;                                                  \
            }                                                                              \
            if (p[j] != '\\') return _scan_string_declined;                                 \
        }                                                                                  \
    } while (0)

/// `_scan_json_string` in windows of W bytes whose masks `MASKS` computes
/// (n >= W): every special byte of a window is handled before the next is
/// loaded, so an escape costs no new load, and runs are copied while the
/// window is in hand. `run` is where the bytes not yet copied begin, `j`
/// the window's start; after an escape the bits it consumed are cleared.
#define SCAN_JSON_STRING_WINDOWS(W, MASKS)                                                           \
    do {                                                                                             \
        size_t run = i, w = 0, j = i;                                                                \
        int escaped = 0;                                                                             \
        for (;;) {                                                                                   \
            uint32_t special, high;                                                                  \
            size_t valid = (W);                                                                      \
            if (n - j >= (W)) {                                                                      \
                MASKS(p + j, &special, &high);                                                       \
            } else {                                                                                 \
                /* The window that ends at n, the bytes before j shifted out. */                     \
                size_t at = n - (W);                                                                 \
                MASKS(p + at, &special, &high);                                                      \
                special >>= j - at;                                                                  \
                high >>= j - at;                                                                     \
                valid = n - j;                                                                       \
            }                                                                                        \
            size_t resume = j + valid;                                                               \
            for (;;) {                                                                               \
                if (high) {                                                                          \
                    size_t bad = check_leads(p, j, n, high, special, &resume);                       \
                    if (bad != SIZE_MAX) return _scan_string_declined;                               \
                }                                                                                    \
                if (!special) break;                                                                 \
                size_t k = j + (size_t)__builtin_ctz(special);                                       \
                if (p[k] == '"') {                                                                   \
                    if (!escaped) {                                                                  \
                        *end = k + 1;                                                                \
                        *written = SIZE_MAX;                                                         \
                        return _scan_string_read;                                                    \
                    }                                                                                \
                    if (k - run > capacity - w) return _scan_string_needs_room;                      \
                    memcpy(out + w, p + run, k - run);                                               \
                    *end = k + 1;                                                                    \
                    *written = w + (k - run);                                                        \
                    return _scan_string_read;                                                        \
                }                                                                                    \
                /* A control byte. */                                                                \
                if (p[k] != '\\') return _scan_string_declined;                                       \
                if (out == NULL || k - run > capacity - w || capacity - w - (k - run) < 3)           \
                    return _scan_string_needs_room;                                                  \
                memcpy(out + w, p + run, k - run);                                                   \
                w += k - run;                                                                        \
                escaped = 1;                                                                         \
                size_t next = k + 1;                                                                 \
                if (next >= n || !unescape(p, &next, n, out, &w)) return _scan_string_declined;      \
                run = next;                                                                          \
                if (next >= j + valid) break;                                                        \
                /* The escape's bytes are not specials or leads. */                                  \
                uint32_t kept = ~0u << (next - j);                                                   \
                special &= kept;                                                                     \
                high &= kept;                                                                        \
            }                                                                                        \
            if (run > resume) resume = run;                                                          \
            if (resume >= n) return _scan_string_declined;                                           \
            j = resume;                                                                              \
        }                                                                                            \
    } while (0)

#if defined(__SSE2__)

static int scan_json_string16(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    if (n < 16) SCAN_JSON_STRING(first_string_stop_bytes);
    SCAN_JSON_STRING_WINDOWS(16, string_masks16);
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
__attribute__((target("avx2"))) static int scan_json_string32(
    const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    if (n < 32) return scan_json_string16(p, i, n, out, capacity, end, written);
    SCAN_JSON_STRING_WINDOWS(32, string_masks32);
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
    SCAN_JSON_STRING(first_string_stop_bytes);
}

int _scan_json_string_bytes(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    if (p == NULL || end == NULL || written == NULL || i >= n) return _scan_string_declined;
    return scan_json_string_bytes(p, i, n, out, capacity, end, written);
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
#else
_scan_json_string_fn _scan_json_string_chosen = direct_bytes;
#endif

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
        return;
    }
#if defined(__SSE2__) && defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    if (cpu_runs_avx2()) _scan_json_string_chosen = direct32;
#endif
}
