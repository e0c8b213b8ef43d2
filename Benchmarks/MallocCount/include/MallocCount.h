#ifndef MALLOC_COUNT_H
#define MALLOC_COUNT_H

/// Allocation calls counted while counting is on: every `malloc`,
/// `calloc`, `realloc` with a new block, `posix_memalign`, `aligned_alloc`
/// and `memalign` of the process (MallocCount.c replaces them, on glibc).
/// -1 where the count is not available (another C library).
long malloc_count_calls(void);

/// Starts or stops counting; counting is off when the process starts.
void malloc_count_set(int on);

#endif
