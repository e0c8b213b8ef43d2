// CRC-32 (IEEE, reflected 0xEDB88320) by carry-less multiplication.
// Our own C, used by AWSEventStream's CRC32 because Swift cannot emit
// PCLMULQDQ. Pointer + length only; every load is inside p[0..<n].
#ifndef CRC32_ACCELERATION_H
#define CRC32_ACCELERATION_H

#include <stddef.h>
#include <stdint.h>

/// 1 when this CPU has carry-less multiplication and the byte shuffles the
/// tail needs (x86_64 PCLMULQDQ, SSSE3, SSE4.1), else 0.
int _crc32_fold_available(void);

/// The CRC register after p[0..<n], starting from `reg` (the state before
/// the first byte, not inverted), written to `*out`: folded 64 bytes per
/// step, the tail shifted into the last lane, the lane reduced to 32 bits
/// by Barrett reduction, no tables. Returns 1, or 0 with nothing written
/// when n < 8 or the CPU lacks the instructions (asked once); the caller's
/// table code then does the work.
int _crc32_clmul(uint32_t reg, const void *p, size_t n, uint32_t *out);

/// The twelve constants the code uses, for a test that derives them from
/// the polynomial: x^575, x^511, x^447, x^383, x^319, x^255, x^191, x^127,
/// x^95, x^63 mod P, then floor(x^64 / P) and P itself, each bit-reflected
/// into a 64-bit lane (bit i standing for x^(63-i)).
void _crc32_clmul_constants(uint64_t out[12]);

#endif
