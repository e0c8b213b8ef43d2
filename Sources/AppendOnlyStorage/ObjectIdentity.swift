// Identity of the buffers that values share, asked on every event.

/// Whether `first` and `second` are the same object (two nils are).
///
/// Told by address: `===` passes each operand through an `AnyObject`
/// existential, a retain and a release apiece, and the callers ask once
/// an event whether a storage they hold is still the current one.
///
/// - Complexity: O(1).
@inlinable @inline(__always)
package func _isSameObject<Object: AnyObject>(_ first: Object?, _ second: Object?) -> Bool {
    first.map { Unmanaged.passUnretained($0).toOpaque() } == second.map { Unmanaged.passUnretained($0).toOpaque() }
}
