/// This package's version: the one place it is set. Requests name it in
/// their `user-agent` (``ClientConfiguration/userAgent``), and
/// `claude-stream --version` prints it.
public enum ClaudeStreamingVersion {
    /// `MAJOR.MINOR.PATCH`.
    public static let current = "0.5.0"
}
