// libFuzzer entry for the terminal sanitizer; the property itself lives in
// FuzzProperties (TerminalTextProperties.swift) so `swift test` replays the
// seeds and regressions through the same code.
import FuzzProperties

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let failure = TerminalTextFuzzProperty.check(UnsafeRawBufferPointer(start: data, count: size)) {
        // Trap so libFuzzer records the input as a crash.
        preconditionFailure(failure)
    }
    return 0
}
