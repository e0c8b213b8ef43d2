// Carry-less-multiplication folding for CRC-32 (IEEE, reflected 0xEDB88320).
// Our own C, used by AWSEventStream's CRC32 because Swift cannot emit
// PCLMULQDQ. Pointer + length only; every load is inside p[0..<n].
#ifndef CRC32_ACCELERATION_H
#define CRC32_ACCELERATION_H

#include <stddef.h>
#include <stdint.h>

/// 1 when this CPU has carry-less multiplication (x86_64 PCLMULQDQ), else 0.
int _crc32_fold_available(void);

/// Folds the longest prefix of p[0..<n] whose length is a multiple of 16
/// (at least 64 bytes; 0 when n < 64 or unavailable) into 16 bytes written
/// to `folded`, with the CRC register `reg` (the state before the first
/// byte, not inverted) already folded in. The raw CRC (register 0, no
/// inversion) of `folded` equals the register after that prefix.
/// Returns the prefix length.
size_t _crc32_fold(uint32_t reg, const uint8_t *p, size_t n, uint8_t folded[16]);

/// The four folding constants the code uses, for a test that derives them
/// from the polynomial: x^575, x^511, x^191, x^127 mod P, each bit-reflected
/// into the top 32 bits of a 64-bit lane.
void _crc32_fold_constants(uint64_t out[4]);

#endif
