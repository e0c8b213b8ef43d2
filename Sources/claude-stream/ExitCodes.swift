// The exit codes every command shares, and their one-line explanation for
// `--help`. README.md lists the same table; outside checks rely on it.

enum ExitCodes {
    static let success: Int32 = 0
    /// A stream or JSON error: a limit, a protocol violation, bad JSON, an
    /// `error` event, a tool input that is not JSON (`--final-json`).
    static let streamError: Int32 = 1
    /// The input is not an event stream (an HTML page, a JSON error body).
    static let notEventStream: Int32 = 2
    /// The stream ended before `message_stop`.
    static let incomplete: Int32 = 3
    static let emptyInput: Int32 = 4
    static let directory: Int32 = 5
    static let usage: Int32 = 64
    /// The input cannot be opened or read (EX_NOINPUT).
    static let unreadable: Int32 = 66

    static let text = """
        exit codes: 0 ok · 1 stream or JSON error (offset N: reason) · 2 not an event stream
                    3 stream ended before message_stop · 4 empty input · 5 input is a directory
                    64 usage · 66 input cannot be opened or read
        """
}
