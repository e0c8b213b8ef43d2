// Counts allocation calls for the benchmark's rows "mallocs per delta".
//
// On glibc, this executable's own `malloc` and kin come first in symbol
// lookup, so every allocation of the process (the Swift runtime's
// `swift_slowAlloc` included) comes here; each forwards to glibc's
// allocator under its internal names (`__libc_malloc`, …), so blocks,
// `free` and `malloc_usable_size` stay glibc's. Counting is one relaxed
// load when off, one relaxed add when on: the other benchmark rows run
// with it off. Elsewhere nothing is replaced and the count is -1.

#include "MallocCount.h"

// A C library header first: it is what defines __GLIBC__.
#include <errno.h>
#include <stddef.h>

#if defined(__GLIBC__)

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static int counting = 0;
static long calls = 0;

static inline void count(void) {
    if (__atomic_load_n(&counting, __ATOMIC_RELAXED)) __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
}

void *malloc(size_t size) {
    count();
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count();
    return __libc_calloc(count_, size);
}

void *realloc(void *block, size_t size) {
    // Growing in place is not a new allocation to the caller, but it is
    // the allocator's work all the same: counted.
    count();
    return __libc_realloc(block, size);
}

void *memalign(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    count();
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *block = __libc_memalign(alignment, size);
    if (block == NULL && size != 0) return ENOMEM;
    *out = block;
    return 0;
}

long malloc_count_calls(void) { return __atomic_load_n(&calls, __ATOMIC_RELAXED); }

void malloc_count_set(int on) { __atomic_store_n(&counting, on, __ATOMIC_RELAXED); }

#else

long malloc_count_calls(void) { return -1; }

void malloc_count_set(int on) { (void)on; }

#endif
