// Standard base64 (RFC 4648 §4, padded), decoded whole: the AVX2 blocks of
// Base64Blocks.c where this CPU has them (the last one overlapping the one
// before, so that no tail is left), else groups of four characters through
// a table, then the last group, where '=' padding may end the text.
// The result says where the first character outside the alphabet is, so
// the Swift side can name it.
//
// Why C for the scalar part too: it runs once per Bedrock event on the few
// dozen characters after the last whole block, and in Swift each call paid
// for three global-initialisation checks and a zero-filled output array,
// more than the decoding itself.

#include "_Base64Acceleration.h"
#include "Base64Sextets.h"

const uint8_t _base64_sextet[256] = {
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x3E, 0xFF, 0xFF, 0xFF, 0x3F,
    0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x3B, 0x3C, 0x3D, 0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF,
    0xFF, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E,
    0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
    0x29, 0x2A, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x31, 0x32, 0x33, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
};

/// Decodes src[0..<n] (n > 0, a multiple of 4) whose first `i` characters
/// (a multiple of 4, all in the alphabet) are decoded in dst already.
static int decode_rest(const uint8_t *src, size_t n, size_t i, uint8_t *dst, size_t capacity, size_t *result) {
    if (i >= n) {
        *result = n / 4 * 3;
        return _base64_decode_ok;
    }
    // Every group but the last: no padding allowed there.
    size_t body = n - 4, written = i / 4 * 3;
    // The last block, overlapping the ones before: its first characters
    // were decoded already and are written again with the same bytes, so
    // no scalar tail is left. (body - 32 is a whole number of groups.)
    if (body >= 32 && i < body && body - i < 32) {
        size_t last = body - 32, lastOut = last / 4 * 3;
        if (capacity >= lastOut && _base64_decode_blocks(src + last, 32, dst + lastOut, capacity - lastOut) == 32) {
            i = body;
            written = body / 4 * 3;
        }
    }
    for (; i < body; i += 4, written += 3) {
        uint8_t a = _base64_sextet[src[i]], b = _base64_sextet[src[i + 1]];
        uint8_t c = _base64_sextet[src[i + 2]], d = _base64_sextet[src[i + 3]];
        if ((a | b | c | d) & 0xC0) {
            *result = i;
            return _base64_decode_invalid;
        }
        uint32_t word = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | d;
        dst[written] = (uint8_t)(word >> 16);
        dst[written + 1] = (uint8_t)(word >> 8);
        dst[written + 2] = (uint8_t)word;
    }
    // The last group: "xx==", "xxx=" or "xxxx".
    uint8_t a = _base64_sextet[src[i]], b = _base64_sextet[src[i + 1]];
    uint8_t c = _base64_sextet[src[i + 2]], d = _base64_sextet[src[i + 3]];
    if (a >= 64 || b >= 64) {
        *result = i;
        return _base64_decode_invalid;
    }
    dst[written++] = (uint8_t)(a << 2 | b >> 4);
    if (c == 0xFE) {
        if (d != 0xFE) {
            *result = i + 3;
            return _base64_decode_invalid;
        }
    } else {
        if (c >= 64) {
            *result = i + 2;
            return _base64_decode_invalid;
        }
        dst[written++] = (uint8_t)(b << 4 | c >> 2);
        if (d != 0xFE) {
            if (d >= 64) {
                *result = i + 3;
                return _base64_decode_invalid;
            }
            dst[written++] = (uint8_t)(c << 6 | d);
        }
    }
    *result = written;
    return _base64_decode_ok;
}

int _base64_decode(const void *source, size_t n, uint8_t *dst, size_t capacity, size_t *result) {
    const uint8_t *src = (const uint8_t *)source;
    if (result == NULL) return _base64_decode_capacity;
    *result = 0;
    if (n == 0) return _base64_decode_ok;
    if (src == NULL) return _base64_decode_capacity;
    if (n % 4 != 0) {
        *result = n - n % 4;
        return _base64_decode_invalid;
    }
    if (dst == NULL || capacity < n / 4 * 3) return _base64_decode_capacity;
    // The blocks take every group but the last, where padding may be.
    size_t i = n - 4 >= 32 ? _base64_decode_blocks(src, n - 4, dst, capacity) : 0;
    return decode_rest(src, n, i, dst, capacity, result);
}
