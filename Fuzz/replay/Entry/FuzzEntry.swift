// libFuzzer entry for the replay target; the property lives in FuzzProperties
// so `swift test` replays the corpus through the same code.
import FuzzProperties

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let failure = ReplayFuzzProperty.check(UnsafeRawBufferPointer(start: data, count: size)) {
        // Trap so libFuzzer records the input as a crash.
        preconditionFailure(failure)
    }
    return 0
}
