// Bedrock's chunk payload in its own layout, read in one call:
//
//   {"bytes":"<padded base64 of one event>"}
//   {"bytes":"<padded base64 of one event>","p":"<padding>"}
//
// The head is compared as bytes, the base64 decoded up to its closing
// quote (the AVX2 run of Base64Vectors.h, then groups of four), and the
// rest checked: `}` alone, or `,"p":"`, a padding with no '"' or '\\'
// (16 bytes per test), and `"}`. One call, where the Swift side had made
// three (the head and tail checks, the decode, the padding scan), each
// with its own checks and register saves: a Bedrock event is small, so a
// call's fixed part counts.
//
// It says only yes or no. A payload in any other form (an escape, another
// member, whitespace, bad base64, misplaced '=') is declined, and the
// chunk decoder's general scanner reads it again and says what is wrong.
// So this must never take a payload the general scanner would read
// differently: a '"' in the padding could close it early and smuggle in a
// second `bytes` member, which is why the padding is scanned at all.
//
// Worked example: `{"bytes":"QUJD","p":"ab"}` (25 bytes). The 10-byte head
// matches; the base64 starts at 10, runs to the quote at 14 ("QUJD": 4
// characters, one whole group, "ABC"); `,"p":"` follows at 15; the padding
// is 21..<23, "ab", plain; `"}` ends it at 23. Result: 3 bytes, "ABC".

#include "_Base64Acceleration.h"
#include "Base64Sextets.h"
#include "Base64Vectors.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>

/// Bit k set where byte k of p[0..<16] is '"' or '\\'.
static inline unsigned quote_or_backslash(const uint8_t *p) {
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    __m128i hits = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    return (unsigned)_mm_movemask_epi8(hits);
}

/// Whether p[from..<to] holds no '"' or '\\'. The 16 bytes before `from`
/// must be readable (they are looked at and ignored): the last window ends
/// at `to` and reaches back over them when the range is short.
static inline __attribute__((always_inline)) int plain(const uint8_t *p, size_t from, size_t to) {
    size_t i = from;
    for (; to - i > 16; i += 16) {
        if (quote_or_backslash(p + i) != 0) return 0;
    }
    // The window that ends at `to`, the bytes before `i` shifted out.
    size_t at = to - 16;
    return (quote_or_backslash(p + at) >> (i - at)) == 0;
}

#else

static inline __attribute__((always_inline)) int plain(const uint8_t *p, size_t from, size_t to) {
    for (size_t i = from; i < to; i++) {
        if (p[i] == '"' || p[i] == '\\') return 0;
    }
    return 1;
}

#endif

/// Decodes the padded base64 at src[0..<n] up to its closing quote, the
/// first `i` characters decoded already and every byte before `stop` in the
/// alphabet (what `decode_run_avx2` reports). Returns 1 with the quote's
/// offset and the bytes written, or 0 when the text is not plain padded
/// base64 ended by a quote.
static inline __attribute__((always_inline)) int finish_string(
    const uint8_t *src, size_t n, size_t i, size_t stop, uint8_t *dst, size_t *quote, size_t *written) {
    while (stop < n && _base64_sextet[src[stop]] < 64) stop++;
    // Then at most two '=' and the closing quote, or it is not this form.
    size_t text = stop;
    for (int pad = 0; pad < 2 && text < n && src[text] == '='; pad++) text++;
    if (text == n || src[text] != '"' || text % 4 != 0) return 0;
    // Now it is valid: every character before `stop` is in the alphabet,
    // and the '=' make the last group "xx==" or "xxx=". No more checks.
    size_t full = stop - stop % 4, out = i / 4 * 3;
    for (; i < full; i += 4, out += 3) (void)_base64_decode_group(src + i, dst + out);
    if (stop > full) {
        uint8_t a = _base64_sextet[src[full]], b = _base64_sextet[src[full + 1]];
        dst[out++] = (uint8_t)(a << 2 | b >> 4);
        if (stop - full == 3) dst[out++] = (uint8_t)(b << 4 | _base64_sextet[src[full + 2]] >> 2);
    }
    *quote = text;
    *written = out;
    return 1;
}

static const uint8_t head[10] = {'{', '"', 'b', 'y', 't', 'e', 's', '"', ':', '"'};
static const uint8_t padding_head[6] = {',', '"', 'p', '"', ':', '"'};

/// Everything after the head: the text's end and its last groups, then the
/// rest of the payload. `decoded` and `stop` as `finish_string` takes them.
static inline __attribute__((always_inline)) int finish_payload(
    const uint8_t *p, size_t n, uint8_t *dst, size_t decoded, size_t stop, size_t *result) {
    const uint8_t *text = p + sizeof head;
    size_t quote = 0, written = 0;
    if (!finish_string(text, n - sizeof head, decoded, stop, dst, &quote, &written)) return _base64_decode_invalid;
    // Past the closing quote: `}` alone, or `,"p":"`, the padding and `"}`
    // (at least 8 bytes). The padding starts 17 or more bytes in, so the
    // 16 before it are readable.
    size_t rest = sizeof head + quote + 1;
    if (n - rest == 1) {
        if (p[rest] != '}') return _base64_decode_invalid;
    } else if (n - rest < 8 || memcmp(p + rest, padding_head, sizeof padding_head) != 0 || p[n - 2] != '"'
               || p[n - 1] != '}' || !plain(p, rest + sizeof padding_head, n - 2)) {
        return _base64_decode_invalid;
    }
    *result = written;
    return _base64_decode_ok;
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
/// The whole read with the AVX2 run inlined: one call for a payload.
__attribute__((target("avx2"))) static int read_payload_avx2(const uint8_t *p, size_t n, uint8_t *dst, size_t capacity, size_t *result) {
    size_t stop = 0;
    size_t decoded = decode_run_avx2(p + sizeof head, n - sizeof head, dst, capacity, &stop);
    return finish_payload(p, n, dst, decoded, stop, result);
}
#endif

/// The checks before the base64: 1 to go on, else the status to return.
static inline __attribute__((always_inline)) int check_head(
    const uint8_t *p, size_t n, const uint8_t *dst, size_t capacity, size_t *result, int *status) {
    *status = _base64_decode_capacity;
    if (result == NULL) return 0;
    *result = 0;
    if (p == NULL || dst == NULL) return 0;
    *status = _base64_decode_invalid;
    if (n < 12 || memcmp(p, head, sizeof head) != 0) return 0;
    *status = _base64_decode_capacity;
    return capacity >= (n - sizeof head) / 4 * 3;
}

int _base64_decode_bedrock_payload(const void *source, size_t n, uint8_t *dst, size_t capacity, size_t *result) {
    const uint8_t *p = (const uint8_t *)source;
    int status = 0;
    if (!check_head(p, n, dst, capacity, result, &status)) return status;
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    if (_base64_avx2) return read_payload_avx2(p, n, dst, capacity, result);
#endif
    return finish_payload(p, n, dst, 0, 0, result);
}

int _base64_decode_bedrock_payload_scalar(const void *source, size_t n, uint8_t *dst, size_t capacity, size_t *result) {
    const uint8_t *p = (const uint8_t *)source;
    int status = 0;
    if (!check_head(p, n, dst, capacity, result, &status)) return status;
    return finish_payload(p, n, dst, 0, 0, result);
}
