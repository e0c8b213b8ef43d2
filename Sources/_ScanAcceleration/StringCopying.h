// The string scans' shared parts: the decoding of one escape, and the
// bodies of `_scan_json_string` and `_scan_json_string_copying` as macros
// over a window width (the plain-run scan, the storing scan, and the scan
// that copies run by run). Static, and included by ByteRuns.c alone: each
// macro is expanded there once per window width, each expansion compiled
// for its own instructions.
//
// Worked example, `unescape` at `\u00e9"`: p[*j] is `u`, four hex digits
// follow and give U+00E9, which is written as C3 A9; *j moves past the
// digits, to the quote, and *w by two.

#ifndef SCAN_ACCELERATION_STRING_COPYING_H
#define SCAN_ACCELERATION_STRING_COPYING_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline int hex_value(uint8_t b) {
    if (b >= '0' && b <= '9') return b - '0';
    if (b >= 'a' && b <= 'f') return b - 'a' + 10;
    if (b >= 'A' && b <= 'F') return b - 'A' + 10;
    return -1;
}

/// The byte each one-letter escape stands for, by its letter; 0 for the
/// rest (`u` included). A table, not a switch: the switch was an indirect
/// jump that guessed wrong whenever one escape followed another kind.
static const uint8_t escaped_byte[128] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = 0x08, ['f'] = 0x0C, ['n'] = 0x0A, ['r'] = 0x0D, ['t'] = 0x09,
};

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

/// The body of `_scan_json_string` over a plain-run scan `STOP`: one copy
/// per window width, each compiled for its instructions. `COPIES` (a
/// constant): a string without escapes is copied into `out` too
/// (`_scan_json_string_copying`).
#define SCAN_JSON_STRING(STOP, COPIES)                                                     \
    do {                                                                                   \
        size_t j = STOP(p, i, n);                                                          \
        if (j >= n) return _scan_string_declined;                                          \
        if (p[j] == '"') {                                                                 \
            if (COPIES) {                                                                  \
                if (out == NULL || j - i > capacity) return _scan_string_needs_room;       \
                memcpy(out, p + i, j - i);                                                 \
            }                                                                              \
            *end = j + 1;                                                                  \
            *written = (COPIES) ? j - i : SIZE_MAX;                                        \
            return _scan_string_read;                                                      \
        }                                                                                  \
        /* A control byte, or a character the run could not pass. */                       \
        if (p[j] != '\\') return _scan_string_declined;                                     \
        size_t w = j - i;                                                                  \
        if (out == NULL || w > capacity) return _scan_string_needs_room;                   \
        memcpy(out, p + i, w);                                                             \
        for (;;) {                                                                         \
            /* p[j] is a backslash; an escape writes at most three bytes. */                \
            j++;                                                                           \
            if (j >= n) return _scan_string_declined;                                      \
            if (capacity - w < 3) return _scan_string_needs_room;                          \
            if (!unescape(p, &j, n, out, &w)) return _scan_string_declined;                \
            size_t k = STOP(p, j, n);                                                      \
            if (k >= n) return _scan_string_declined;                                      \
            if (k - j > capacity - w) return _scan_string_needs_room;                      \
            memcpy(out + w, p + j, k - j);                                                 \
            w += k - j;                                                                    \
            j = k;                                                                         \
            if (p[j] == '"') {                                                             \
                *end = j + 1;                                                              \
                *written = w;                                                              \
                return _scan_string_read;                                                  \
            }                                                                              \
            if (p[j] != '\\') return _scan_string_declined;                                 \
        }                                                                                  \
    } while (0)

/// The fast path of `_scan_json_string_copying` in steps of W bytes: each
/// step is stored to its place in `out` as it is loaded (`STORE_AND_MASK`,
/// which gives its masks, quotes included), so a run costs no copy of its
/// own, and an escape stores the rest of its step again at the place the
/// escape shifted it to (`STORE`). `ERRORS` gives the step's UTF-8 errors.
/// `d` maps an input index of the current run to its output index (x + d,
/// modulo 2^64). Every load needs two steps of input from the step's
/// start, every store a step of room (bytes stored past the string's end
/// are scratch, as in `COPY_RUN_IN_WINDOWS`); where either runs short the
/// loop ends with `j`, `d` and `carried` as they are, so a loop of smaller
/// steps can go on from there, and after the last the caller starts the
/// string over run by run (`SCAN_JSON_STRING_WINDOWS`), which needs
/// neither. Worked example, `ab\ncd"` and more from 0, W = 16: the window
/// at 0 is stored at 0; the backslash at 2 writes LF at 2, `d` becomes
/// -1, and the window's rest, loaded from 4, is stored at 3; the quote at
/// 6 ends the string: 6 - 1 = 5 bytes written, `ab⏎cd`.
#define SCAN_JSON_STRING_STORING(W, STORE_AND_MASK, STORE, ERRORS)                                   \
    while (n - j >= 2 * (W) && j + d <= capacity && capacity - (j + d) >= (W)) {                      \
        uint64_t special, high, quotes, errors = 0;                                                  \
        STORE_AND_MASK(p + j, out + j + d, &special, &high, &quotes);                                \
        if (high | (uint64_t)carried) {                                                              \
            errors = ERRORS(p, j, i, carried, high);                                                 \
            /* Only a high byte in the last three places can open one. */                           \
            carried = (high >> ((W) - 3)) != 0 && leaves_character_open(p, j + (W));                  \
        }                                                                                            \
        size_t next_step = j + (W);                                                                  \
        for (;;) {                                                                                   \
            if (errors != 0 && (errors & through(special)) != 0) return _scan_string_declined;        \
            if (!special) break;                                                                     \
            size_t k = j + (size_t)__builtin_ctzll(special);                                         \
            /* From the mask, not the byte: the branch that guesses wrong */                         \
            /* once a string is then decided without waiting for a load. */                          \
            if (quotes & special & (0ull - special)) {                                               \
                *end = k + 1;                                                                        \
                *written = k + d;                                                                    \
                return _scan_string_read;                                                            \
            }                                                                                        \
            if (p[k] != '\\') return _scan_string_declined;                                           \
            size_t w = k + d;                                                                        \
            /* Room for the escape's bytes and the step stored after it. */                          \
            if (w > capacity || capacity - w < 3 + (W)) {                                            \
                next_step = n;                                                                       \
                break;                                                                               \
            }                                                                                        \
            size_t next = k + 1;                                                                     \
            if (!unescape(p, &next, n, out, &w)) return _scan_string_declined;                       \
            d = w - next;                                                                            \
            if (next >= j + (W)) {                                                                   \
                /* The escape ran on past the step: it ends on an ASCII byte. */                      \
                next_step = next;                                                                    \
                carried = 0;                                                                         \
                break;                                                                               \
            }                                                                                        \
            STORE(out + next + d, p + next);                                                         \
            special &= ~0ull << (next - j);                                                          \
        }                                                                                            \
        j = next_step;                                                                               \
    }

/// `_scan_json_string` in windows of W bytes whose masks `MASKS` and
/// UTF-8 errors `ERRORS` computes (n >= W), runs copied by `COPY`: every
/// special byte of a window is handled before the next is loaded, so an
/// escape costs no new load, and runs are copied while the window is in
/// hand. `run` is where the
/// bytes not yet copied begin, `j` the window's start; after an escape the
/// bits it consumed are cleared. A UTF-8 error at or before a special byte
/// declines the string (the general reader says what is wrong, and where);
/// `carried` is as in `FIRST_STRING_STOP`. `COPIES` as in `SCAN_JSON_STRING`:
/// the string counts as escaped from its start, so its last run is copied
/// like any other.
#define SCAN_JSON_STRING_WINDOWS(W, MASKS, ERRORS, COPY, COPIES)                                         \
    do {                                                                                             \
        size_t run = i, w = 0, j = i;                                                                \
        int escaped = (COPIES), carried = 0;                                                         \
        for (;;) {                                                                                   \
            uint32_t special, high;                                                                  \
            uint64_t errors = 0;                                                                     \
            size_t valid = (W);                                                                      \
            if (n - j >= (W)) {                                                                      \
                MASKS(p + j, &special, &high);                                                       \
                if (high | (uint32_t)carried) {                                                      \
                    errors = ERRORS(p, j, i, carried);                                               \
                    carried = leaves_character_open(p, j + (W));                                     \
                }                                                                                    \
            } else {                                                                                 \
                /* The window that ends at n, the bytes before j shifted out. */                     \
                size_t at = n - (W);                                                                 \
                MASKS(p + at, &special, &high);                                                      \
                special >>= j - at;                                                                  \
                high >>= j - at;                                                                     \
                valid = n - j;                                                                       \
                if (high | (uint32_t)carried) {                                                      \
                    /* As in `FIRST_STRING_STOP`'s last window. */                                   \
                    errors = ERRORS(p, at, i, carried && at >= 3) >> (j - at);                       \
                }                                                                                    \
            }                                                                                        \
            for (;;) {                                                                               \
                if (errors != 0 && (errors & through(special)) != 0) return _scan_string_declined;    \
                if (!special) break;                                                                 \
                size_t k = j + (size_t)__builtin_ctz(special);                                       \
                if (p[k] == '"') {                                                                   \
                    if (!escaped) {                                                                  \
                        *end = k + 1;                                                                \
                        *written = SIZE_MAX;                                                         \
                        return _scan_string_read;                                                    \
                    }                                                                                \
                    if (((COPIES) && out == NULL) || k - run > capacity - w)                         \
                        return _scan_string_needs_room;                                              \
                    COPY(out, w, capacity, p, run, k - run, n);                                      \
                    *end = k + 1;                                                                    \
                    *written = w + (k - run);                                                        \
                    return _scan_string_read;                                                        \
                }                                                                                    \
                /* A control byte. */                                                                \
                if (p[k] != '\\') return _scan_string_declined;                                       \
                if (out == NULL || k - run > capacity - w || capacity - w - (k - run) < 3)           \
                    return _scan_string_needs_room;                                                  \
                COPY(out, w, capacity, p, run, k - run, n);                                          \
                w += k - run;                                                                        \
                escaped = 1;                                                                         \
                size_t next = k + 1;                                                                 \
                if (next >= n || !unescape(p, &next, n, out, &w)) return _scan_string_declined;      \
                run = next;                                                                          \
                if (next >= j + valid) break;                                                        \
                /* The escape's bytes are not specials; errors before it were seen. */               \
                special &= ~0u << (next - j);                                                        \
            }                                                                                        \
            if (j + valid >= n) return _scan_string_declined;                                        \
            if (run > j + valid) {                                                                   \
                /* An escape ran on past the window: it ends on an ASCII byte. If it */              \
                /* ends the input, no window is left (and none may be shifted by W). */              \
                if (run >= n) return _scan_string_declined;                                          \
                j = run;                                                                             \
                carried = 0;                                                                         \
            } else {                                                                                 \
                j += valid;                                                                          \
            }                                                                                        \
        }                                                                                            \
    } while (0)

#endif
