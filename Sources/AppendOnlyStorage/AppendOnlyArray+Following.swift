// Following another writer's appends: for a writer that repeats, from a
// copy of an earlier state, the very appends the storage's longer holder
// already made (an incremental parser replayed from a checkpoint over the
// same input: IncrementalJSON's ParseCheckpoint.swift). It steps over them
// instead of forking a copy of everything before them. The append paths
// take this route only when told to (`following`) and only after their
// claim failed, so ordinary appends do not pay for it.

import Synchronization

extension AppendOnlyArray {
    /// Moves this value's count over the next `n` elements of its storage,
    /// which another value appended (the storage has claimed them), without
    /// reading or writing them; false, and unchanged, when they are not
    /// claimed.
    ///
    /// For a writer that repeats, from a copy of an earlier state, the very
    /// appends that the storage's longer holder made, and that were
    /// published to it with a value that holds them (an incremental parser
    /// replayed from a checkpoint over the same input: IncrementalJSON's
    /// `ParseCheckpoint`). It then shares those elements instead of forking
    /// a copy of everything before them. Anyone else must not call it: the
    /// elements it steps over are not compared with anything.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(never)
    package mutating func _skipAppended(_ n: Int) -> Bool {
        guard let storage = _storage, n >= 0, n <= storage.claimed.load(ordering: .acquiring) &- _count else { return false }
        _count &+= n
        _checkInvariants()
        return true
    }

    /// Goes on in `storage`, which holds this value's elements as its
    /// prefix: the storage that this value's longer holder moved them into
    /// when it grew (a growth copies the prefix, and the old storage is
    /// never written again). For the same writer as ``_skipAppended(_:)``,
    /// whose appends then step over what the holder appended since. False,
    /// and unchanged, when `storage` has claimed fewer elements than this
    /// value has.
    ///
    /// - Complexity: O(1).
    package mutating func _rebase(onto storage: _AppendOnlyStorage<Element>?) -> Bool {
        guard let storage else { return _count == 0 && _storage == nil }
        guard storage.claimed.load(ordering: .acquiring) >= _count else { return false }
        _storage = storage
        _checkInvariants()
        return true
    }
}
