// libFuzzer entry for the terminal sanitizer. The sanitizer is the command
// line's (Sources/CommandLineDisplay, not a library), and its property lives
// in FuzzProperties/TerminalTextProperties.swift so that `swift test`
// replays the seeds and regressions through the same code; this target
// compiles both into its own module, through the links beside this folder.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let failure = TerminalTextFuzzProperty.check(UnsafeRawBufferPointer(start: data, count: size)) {
        // Trap so libFuzzer records the input as a crash.
        preconditionFailure(failure)
    }
    return 0
}
