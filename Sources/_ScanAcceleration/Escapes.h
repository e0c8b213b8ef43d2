// JSON's escapes decoded: the one-letter ones by table, `\uXXXX` by hand.
// Static inline, for the string scans (ByteRuns.c, StoringSteps.h).

#ifndef SCAN_ACCELERATION_ESCAPES_H
#define SCAN_ACCELERATION_ESCAPES_H

#include <stddef.h>
#include <stdint.h>

/// The byte each one-letter escape stands for, by its letter; 0 for the
/// rest (`u` included). A table, not a switch: the switch was an indirect
/// jump that guessed wrong whenever one escape followed another kind.
static const uint8_t escaped_byte[128] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = 0x08, ['f'] = 0x0C, ['n'] = 0x0A, ['r'] = 0x0D, ['t'] = 0x09,
};

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
    uint8_t byte = e < 128 ? escaped_byte[e] : 0;
    if (byte != 0) {
        out[(*w)++] = byte;
        return 1;
    }
    if (e != 'u') return 0;
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

#endif
