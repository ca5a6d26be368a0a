/// A command line for the server, and how it is named where it may be seen.
struct SMTPCommand: Sendable, Equatable {
    /// The line without its CRLF; for AUTH it holds credentials, so it is never logged or put in an error.
    var line: String
    /// The command's name for errors and logs (`MAIL FROM`, `AUTH PLAIN`).
    var name: String
    /// Whether a positive reply switches the connection to TLS.
    var upgradesToTLS = false
}
