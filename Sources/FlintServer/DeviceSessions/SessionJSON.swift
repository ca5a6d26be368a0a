import FlintCore
import FlintStore
import Hummingbird

/// A session as the owner's and the operator's listings answer it.
struct SessionJSON: Encodable, Sendable {
    var sessionId: String
    /// The device's short name (``DeviceName``), when the sign-in's request told.
    var device: String?
    var firstIp: String?
    var lastIp: String?
    /// Milliseconds since the epoch, as a string (as `createdAt` in account answers).
    var createdAt: String
    /// Its latest recorded use, at most ten minutes behind (milliseconds, as a string).
    var lastUsedAt: String
    /// The sign-in method (`firebase.sign_in_provider`: `password`, `phone`, `google.com`, `custom`, …).
    var signInProvider: String
    /// The second factor the sign-in passed (`phone`, `totp`, …), if any.
    var secondFactor: String?
    /// The sign-in's `auth_time` (seconds, as a string).
    var authTime: String
    /// Whether it is the caller's own session (the owner's listing only).
    var current: Bool?

    init(_ record: RefreshTokenRecord, current: Bool? = nil) {
        sessionId = record.sessionID
        device = record.device
        firstIp = record.firstIP
        lastIp = record.lastIP
        createdAt = String(record.createdAt.millisecondsSince1970)
        lastUsedAt = String(record.lastUsedAt.millisecondsSince1970)
        signInProvider = record.signInProvider
        secondFactor = record.secondFactor?.rawValue
        authTime = String(record.authTime.secondsSince1970)
        self.current = current
    }
}

/// A listing of sessions.
struct SessionListResponse: ResponseEncodable {
    var sessions: [SessionJSON]
}
