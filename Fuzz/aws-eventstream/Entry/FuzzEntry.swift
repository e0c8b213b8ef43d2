// libFuzzer entry for the AWS event-stream parser; the property itself lives
// in FuzzProperties so `swift test` replays the corpus through the same code.
import FuzzProperties

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let failure = AWSEventStreamFuzzProperty.check(UnsafeRawBufferPointer(start: data, count: size)) {
        // Trap so libFuzzer records the input as a crash.
        preconditionFailure(failure)
    }
    return 0
}
