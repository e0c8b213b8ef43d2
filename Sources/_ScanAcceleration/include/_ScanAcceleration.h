// Byte-class scans for the innermost loop of the JSON string reader, 16
// bytes a step on x86_64, 32 where the CPU has AVX2 (Swift cannot emit
// the byte-mask instruction, pmovmskb, that turns a vector compare into
// an index). Pointer and bounds only: every load is inside p[0..<n], never
// before p or past n, so the scans are safe on any buffer and clean under
// AddressSanitizer. Other CPUs take a portable byte loop.
#ifndef SCAN_ACCELERATION_H
#define SCAN_ACCELERATION_H

#include <stddef.h>
#include <stdint.h>

#include "LineEnd.h"
#include "ShortString.h"

/// 1 when CLAUDE_STREAMING_GENERAL_PATH was set (not empty, not "0") as
/// the library loaded: every fast reader is off and the string scans take
/// their byte loops (GeneralPath.c); else 0. Read once, never changed.
int _scan_general_path(void);

/// The first index in [i, n) that ends a run of a JSON string's contents
/// that needs no attention, or n: a '"', a '\\', a control byte (< 0x20),
/// or the lead byte of a UTF-8 sequence that is ill-formed or cut by n.
/// Well-formed multi-byte characters (the Unicode table of well-formed
/// byte sequences: no overlong forms, no surrogates, nothing above
/// U+10FFFF) are part of the run.
/// - Complexity: O(n - i).
size_t _scan_json_string_run(const uint8_t *p, size_t i, size_t n);

/// What `_scan_json_string` found.
enum {
    /// The string is read: `*end` is the index just past its closing
    /// quote; `*written` is SIZE_MAX when it had no escape (its contents are
    /// p[i..<*end - 1], nothing was written), else the count of unescaped
    /// bytes in out[0..<*written].
    _scan_string_read = 0,
    /// Left to the caller's general reader: no closing quote before n, a
    /// control byte, ill-formed or cut UTF-8, an escape that is not one of
    /// JSON's, or a `\u` escape of a surrogate (pairs are the general
    /// reader's).
    _scan_string_declined = 1,
    /// The unescaped string needs more than `capacity` bytes: call again
    /// with a larger `out` (it never needs more than the string's length).
    _scan_string_needs_room = 2,
};

/// Reads a whole JSON string whose contents start at p[i] (just past its
/// opening quote), unescaping it into out[0..<capacity] when it has
/// escapes; see the result codes above. Every load is inside p[0..<n],
/// every store inside out[0..<capacity].
/// - Complexity: O(length of the string).
int _scan_json_string(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written);

/// The shape of `_scan_json_string`.
typedef int (*_scan_json_string_fn)(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written);

/// The path `_scan_json_string_direct` takes, chosen once as the library
/// loads (AVX2, 16-byte windows, or the byte loop); never changed after.
extern _scan_json_string_fn _scan_json_string_chosen;

/// `_scan_json_string` for a caller whose `p`, `end` and `written` are not
/// null: the same result, without the checks and the dispatch, inlined
/// into the caller as one indirect call.
static inline int _scan_json_string_direct(
    const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    return _scan_json_string_chosen(p, i, n, out, capacity, end, written);
}

/// The path `_scan_json_string_copying_direct` takes, chosen as
/// `_scan_json_string_chosen` is.
extern _scan_json_string_fn _scan_json_string_copying_chosen;

/// `_scan_json_string_direct` for a caller that wants the contents in
/// `out` whether or not the string has escapes: a string read always has
/// `*written` bytes in out[0..<*written] (never SIZE_MAX), or the scan asks
/// for room. For a destination that is the string's final place (the tail
/// of a growing text), which saves the copy out of the input afterwards.
static inline int _scan_json_string_copying_direct(
    const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written) {
    return _scan_json_string_copying_chosen(p, i, n, out, capacity, end, written);
}

/// `_scan_json_string_copying_direct` with 16-byte windows, and one byte at
/// a time, whatever the CPU (for the tests; null pointers declined).
int _scan_json_string_copying_16(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written);
int _scan_json_string_copying_bytes(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written);

/// `_scan_json_string` with 16-byte windows, and one byte at a time,
/// whatever the CPU: the paths another machine takes, for the tests to
/// hold against the same expectations.
int _scan_json_string_16(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written);
int _scan_json_string_bytes(const uint8_t *p, size_t i, size_t n, uint8_t *out, size_t capacity, size_t *end, size_t *written);

/// `_scan_json_string_run` with 16-byte windows, and one byte at a time
/// (the oracle both window widths are held to), whatever the CPU.
size_t _scan_json_string_run_16(const uint8_t *p, size_t i, size_t n);
size_t _scan_json_string_run_bytes(const uint8_t *p, size_t i, size_t n);

/// Writes p[*i..<n] into out[0..<capacity] as the contents of a JSON
/// string literal, a window at a time: a quote or backslash escaped with a
/// backslash, LF, CR, tab, backspace and form feed as `\n` `\r` `\t` `\b`
/// `\f`, other control bytes as `\u00xx`, everything else (well-formed
/// UTF-8) as it is. Stops, leaving the rest to the caller, before a window
/// whose UTF-8 is ill-formed at or before its first special byte (at the
/// lead of a character open across it), or where less than a window of
/// input or a window and six bytes of room is left; writes nothing on the
/// general path (CLAUDE_STREAMING_GENERAL_PATH) or without SSE2. Returns
/// the count written, in out[0..<count]; `*i` is where it stopped, never
/// inside a character. Every load is inside p[0..<n], every store inside
/// out[0..<capacity].
/// - Complexity: O(bytes read).
size_t _json_escape_windows(const uint8_t *p, size_t *i, size_t n, uint8_t *out, size_t capacity);

/// `_json_escape_windows` with 16-byte windows whatever the CPU (for the
/// tests).
size_t _json_escape_windows_16(const uint8_t *p, size_t *i, size_t n, uint8_t *out, size_t capacity);

#endif
