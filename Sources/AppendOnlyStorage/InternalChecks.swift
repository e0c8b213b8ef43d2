// Whether this build checks the storage's invariants after every mutation.
//
// Package.swift sets APPEND_ONLY_STORAGE_INTERNAL_CHECKS for debug builds,
// so `swift build` and `swift test` trap on the first broken invariant while
// release builds compile every invariant check to nothing (the same
// arrangement as swift-collections' COLLECTIONS_INTERNAL_CHECKS).
//
// The storage's checks are `_checkInvariants()`: `@inlinable` code calls
// them, so they must be `@usableFromInline`. The region's and the pool's are
// called only from code compiled here, so they are plain `checkInvariants()`.

#if APPEND_ONLY_STORAGE_INTERNAL_CHECKS
/// True: the invariant checks run after every mutation in this build.
package let internalChecksEnabled = true
#else
/// False: the invariant checks are compiled out of this build.
package let internalChecksEnabled = false
#endif
