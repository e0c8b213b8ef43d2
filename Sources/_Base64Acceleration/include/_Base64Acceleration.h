// Base64 decoding 32 characters per step with AVX2. Our own C, used by
// ClaudeStreaming's Bedrock chunk decoder because Swift cannot emit the
// byte shuffles this needs. Pointer + length only; every load is inside
// source[0..<n] and every store inside dst[0..<capacity].
#ifndef BASE64_ACCELERATION_H
#define BASE64_ACCELERATION_H

#include <stddef.h>
#include <stdint.h>

/// 1 when this CPU and OS run AVX2 code (x86_64), else 0.
int _base64_blocks_available(void);

/// Decodes source[0..<n] in blocks of 32 characters of the standard alphabet
/// (RFC 4648 §4; no padding, no other byte) into dst, 24 bytes per block,
/// stopping before the first block that holds any other byte, before a
/// block whose 32-byte store would pass `capacity`, and at the last whole
/// block. Returns the characters consumed (a multiple of 32); the bytes
/// written are that count / 4 * 3. The caller decodes the rest, and finds
/// the exact place of a bad character, with its own code. Returns 0 when
/// unavailable.
size_t _base64_decode_blocks(const void *source, size_t n, uint8_t *dst, size_t capacity);

#endif
