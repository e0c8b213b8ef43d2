// Base64 decoding for ClaudeStreaming's Bedrock chunk decoder: 32
// characters per step with AVX2 (Swift cannot emit the byte shuffles this
// needs), and the whole padded decode around it; and the one scan the
// decoder makes over the chunk's other string. Pointer + length only:
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

/// Decodes the whole groups of the standard alphabet at the start of
/// source[0..<n], up to the first byte outside it ('=' counts as outside),
/// into dst with AVX2, and sets `*stop`: every byte before it is in the
/// alphabet, and it is that first other byte's offset (or n) unless n < 32.
/// Returns the characters decoded (a multiple of 4, at most `*stop`); the
/// bytes written are that count / 4 * 3. Returns 0 with `*stop` 0 where
/// AVX2 is unavailable: the caller goes on byte by byte from `*stop`.
size_t _base64_decode_run(const void *source, size_t n, uint8_t *dst, size_t capacity, size_t *stop);

/// What `_base64_decode` and `_base64_decode_string` found.
enum {
    /// Decoded: `*result` is the count of bytes written.
    _base64_decode_ok = 0,
    /// Not base64: `*result` is the offset of the group holding the first
    /// character outside the alphabet (of the character itself in the last
    /// group), or of the incomplete last group when `n` is not a multiple of 4.
    _base64_decode_invalid = 1,
    /// `dst` is smaller than n / 4 * 3 bytes (or a pointer is null): nothing done.
    _base64_decode_capacity = 2,
};

/// Decodes padded base64 source[0..<n] into dst[0..<capacity], which must
/// hold n / 4 * 3 bytes. The AVX2 blocks do what they can where the CPU has
/// them (asked once); the rest goes four characters at a time.
/// - Complexity: O(n).
int _base64_decode(const void *source, size_t n, uint8_t *dst, size_t capacity, size_t *result);

/// Decodes the base64 at the start of source[0..<n] up to the first '"' in
/// one pass (the inside of a JSON string: `source` is just past its opening
/// quote) into dst[0..<capacity], which must hold n / 4 * 3 bytes.
/// `_base64_decode_ok`: the text before the quote is padded base64 with
/// nothing else in it; `*length` is the quote's offset and `*result` the
/// count of bytes written. `_base64_decode_invalid`: it is not (an escape,
/// a byte outside the alphabet, misplaced '=', a length that is not a
/// multiple of 4, no quote); nothing is promised about dst or the counts,
/// and the caller reads the string its general way, which also says what
/// is wrong.
/// - Complexity: O(length of the text).
int _base64_decode_string(const void *source, size_t n, uint8_t *dst, size_t capacity, size_t *length, size_t *result);

/// The offset of the first '"' or '\\' in source[0..<n] (where a JSON
/// string's plain contents end), or n; 16 bytes per step on x86_64.
/// `before` bytes ahead of `source` may be read too (and are ignored): a
/// string shorter than 16 bytes then takes one step instead of a byte loop.
/// Every load is inside source[-before..<n].
/// - Complexity: O(n).
size_t _json_string_plain_length(const void *source, size_t n, size_t before);

#endif
