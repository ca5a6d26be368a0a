public import FlintCore

/// How far a console session got: the password was checked and a TOTP code is awaited, or both passed.
public struct ConsoleSessionStage: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The stored text.
    public let rawValue: String

    /// A stage from its stored text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The password passed; only the TOTP step is open to it.
    public static let awaitingTOTP = ConsoleSessionStage(rawValue: "totp")
    /// Signed in.
    public static let active = ConsoleSessionStage(rawValue: "active")

    public var description: String { rawValue }
}

/// A console session, stored by the SHA-256 of its cookie's random token.
public struct ConsoleSessionRecord: Sendable, Equatable {
    /// Hex SHA-256 of the cookie's token.
    public var tokenHash: String
    /// The operator's email.
    public var email: String
    public var stage: ConsoleSessionStage
    /// When it began (ms): it ends after its absolute lifetime whatever happens.
    public var createdAt: Instant
    /// The last request it made (ms): it ends after the idle timeout without one.
    public var lastSeenAt: Instant

    /// A session.
    public init(tokenHash: String, email: String, stage: ConsoleSessionStage, createdAt: Instant, lastSeenAt: Instant) {
        (self.tokenHash, self.email, self.stage, self.createdAt, self.lastSeenAt) = (tokenHash, email, stage, createdAt, lastSeenAt)
    }
}
