// Base64 decoding for ClaudeStreaming's Bedrock chunk decoder: 32
// characters per step with AVX2 (Swift cannot emit the byte shuffles this
// needs), and the whole padded decode around it; and Bedrock's own payload
// layout read in one call. Pointer + length only:
// every load is inside source[0..<n] (or the range a function names) and
// every store inside dst[0..<capacity].
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
/// the exact place of a bad character, with its own code. Returns 0 where
/// AVX2 is unavailable (it is asked once).
size_t _base64_decode_blocks(const void *source, size_t n, uint8_t *dst, size_t capacity);

/// What `_base64_decode` and `_base64_decode_bedrock_payload` found.
enum {
    /// Decoded: `*result` is the count of bytes written.
    _base64_decode_ok = 0,
    /// Not base64 (not the layout, for `_base64_decode_bedrock_payload`,
    /// which then leaves `*result` at 0). From `_base64_decode`: `*result`
    /// is the offset of the group holding the first character outside the
    /// alphabet (of the character itself in the last group), or of the
    /// incomplete last group when `n` is not a multiple of 4.
    _base64_decode_invalid = 1,
    /// `dst` is smaller than n / 4 * 3 bytes (or a pointer is null): nothing done.
    _base64_decode_capacity = 2,
};

/// Decodes padded base64 source[0..<n] into dst[0..<capacity], which must
/// hold n / 4 * 3 bytes. The AVX2 blocks do what they can where the CPU has
/// them (asked once); the rest goes four characters at a time.
/// - Complexity: O(n).
int _base64_decode(const void *source, size_t n, uint8_t *dst, size_t capacity, size_t *result);

/// Reads a Bedrock chunk payload in Bedrock's own layout,
/// `{"bytes":"<base64>"}` or `{"bytes":"<base64>","p":"<padding>"}` with no
/// '"' or '\\' in the padding, decoding the base64 into dst[0..<capacity],
/// which must hold (n - 10) / 4 * 3 bytes. `_base64_decode_ok`: it has that
/// layout and its base64 is plain and padded; `*result` is the count of
/// bytes written. `_base64_decode_invalid`: anything else (an escape,
/// another member, whitespace, a byte outside the alphabet, misplaced '=',
/// a length that is not a multiple of 4); nothing is promised about dst,
/// and the caller reads the payload its general way, which also says what
/// is wrong.
/// - Complexity: O(n).
int _base64_decode_bedrock_payload(const void *source, size_t n, uint8_t *dst, size_t capacity, size_t *result);

/// `_base64_decode_bedrock_payload` without the AVX2 run, whatever the CPU
/// has: for a test that checks the scalar path where AVX2 would be taken.
int _base64_decode_bedrock_payload_scalar(const void *source, size_t n, uint8_t *dst, size_t capacity, size_t *result);

#endif
