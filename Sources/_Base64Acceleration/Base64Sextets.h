// The sextet table, shared by the library's C files and not exported.
#ifndef BASE64_SEXTETS_H
#define BASE64_SEXTETS_H
#include <stdint.h>

/// Sextet of each byte; 0xFF outside the alphabet, 0xFE for '='.
extern const uint8_t _base64_sextet[256] __attribute__((visibility("hidden")));

/// Decodes the group src[0..<4] into dst[0..<3]. Nonzero when a character
/// is outside the alphabet ('=' included); dst then holds nothing of value.
static inline unsigned _base64_decode_group(const uint8_t *src, uint8_t *dst) {
    uint8_t a = _base64_sextet[src[0]], b = _base64_sextet[src[1]];
    uint8_t c = _base64_sextet[src[2]], d = _base64_sextet[src[3]];
    uint32_t word = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | d;
    dst[0] = (uint8_t)(word >> 16);
    dst[1] = (uint8_t)(word >> 8);
    dst[2] = (uint8_t)word;
    return (a | b | c | d) & 0xC0;
}

#endif
