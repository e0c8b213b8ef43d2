// The sextet table, shared by the library's C files and not exported.
#ifndef BASE64_SEXTETS_H
#define BASE64_SEXTETS_H
#include <stdint.h>

/// Sextet of each byte; 0xFF outside the alphabet, 0xFE for '='.
extern const uint8_t _base64_sextet[256] __attribute__((visibility("hidden")));

#endif
