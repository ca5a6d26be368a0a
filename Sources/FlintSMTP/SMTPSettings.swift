/// Where and how to deliver mail: the server, how the connection is secured, the credentials, and the limits on
/// waiting and retrying.
public struct SMTPSettings: Sendable, Equatable, CustomStringConvertible {
    /// How the connection to the server is secured.
    public enum Security: String, Sendable, Equatable {
        /// Connect in the clear, then upgrade with STARTTLS before anything else is said (usually port 587). A server
        /// that does not offer STARTTLS is refused.
        case startTLS
        /// TLS from the first byte (usually port 465).
        case implicitTLS
        /// No encryption at all; credentials, if any, go in the clear. Only when chosen explicitly.
        case none
    }

    /// The server's host name or IP address.
    public var host: String
    /// The server's TCP port.
    public var port: Int
    /// How the connection is secured.
    public var security: Security
    /// The user for AUTH; `nil` to send without authenticating.
    public var username: String?
    /// The password for AUTH; never logged.
    public var password: String?
    /// The name this client gives in EHLO.
    public var heloName: String
    /// How long to wait for the TCP connection.
    public var connectTimeout: Duration
    /// How long to wait for each reply (the greeting, and the reply to each command).
    public var commandTimeout: Duration
    /// How many times to try in all when delivery fails for a reason that may pass (a 4xx reply, a broken or
    /// refused connection, a timeout).
    public var maxAttempts: Int
    /// The wait before the second attempt, doubled before each further one.
    public var initialBackoff: Duration
    /// A PEM file of CA certificates to trust instead of the system's roots.
    public var trustRootsFile: String?
    /// Whether the server's certificate chain and name are checked (always, unless turned off for testing).
    public var verifyCertificate: Bool

    /// Settings with the given server and defaults for the rest: 10 s to connect, 30 s per reply, 4 attempts starting
    /// 1 s apart.
    public init(
        host: String, port: Int, security: Security, username: String? = nil, password: String? = nil, heloName: String = "localhost",
        connectTimeout: Duration = .seconds(10), commandTimeout: Duration = .seconds(30), maxAttempts: Int = 4,
        initialBackoff: Duration = .seconds(1), trustRootsFile: String? = nil, verifyCertificate: Bool = true
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.username = username
        self.password = password
        self.heloName = heloName
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.maxAttempts = maxAttempts
        self.initialBackoff = initialBackoff
        self.trustRootsFile = trustRootsFile
        self.verifyCertificate = verifyCertificate
    }

    /// The settings with the password left out, fit for a log line.
    public var description: String {
        let user = username.map { "\($0)\(password == nil ? "" : ":***")@" } ?? ""
        return "\(security == .implicitTLS ? "smtps" : "smtp")://\(user)\(host):\(port) (security: \(security.rawValue))"
    }

    /// Checks what the type cannot: a host, a port in range, positive limits, credentials in pairs, a plain EHLO name.
    /// - Throws: `SMTPError.invalidSettings` naming the first problem.
    public func validate() throws(SMTPError) {
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0.isNewline || $0 == "/" }) else {
            throw .invalidSettings("the host is missing or malformed")
        }
        guard (1...65535).contains(port) else { throw .invalidSettings("the port \(port) is out of range") }
        guard (username == nil) == (password == nil) else { throw .invalidSettings("give both a user and a password, or neither") }
        guard username?.isEmpty != true else { throw .invalidSettings("the user is empty") }
        guard !heloName.isEmpty, heloName.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw .invalidSettings("the EHLO name must be printable ASCII without spaces")
        }
        guard maxAttempts >= 1 else { throw .invalidSettings("maxAttempts must be at least 1") }
        guard connectTimeout > .zero, commandTimeout > .zero else { throw .invalidSettings("timeouts must be positive") }
        guard initialBackoff >= .zero else { throw .invalidSettings("the backoff must not be negative") }
    }
}
