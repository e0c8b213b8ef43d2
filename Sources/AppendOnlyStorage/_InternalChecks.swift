// Whether this build checks the storage's invariants after every mutation.
//
// Package.swift sets APPEND_ONLY_STORAGE_INTERNAL_CHECKS for debug builds,
// so `swift build` and `swift test` trap on the first broken invariant while
// release builds compile every `_checkInvariants()` to nothing (the same
// arrangement as swift-collections' COLLECTIONS_INTERNAL_CHECKS).

#if APPEND_ONLY_STORAGE_INTERNAL_CHECKS
/// True: `_checkInvariants()` runs after every mutation in this build.
package let _internalChecksEnabled = true
#else
/// False: `_checkInvariants()` is compiled out of this build.
package let _internalChecksEnabled = false
#endif
