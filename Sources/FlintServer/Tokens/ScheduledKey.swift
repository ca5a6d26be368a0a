public import FlintCore

/// A key a rotation scheduled: its ID, when it starts signing, and whether this rotation made it (`false`: an
/// earlier rotation's key had not started yet and is answered instead).
public struct ScheduledKey: Sendable, Equatable {
    /// The key ID.
    public let kid: String
    /// When it starts signing.
    public let activatesAt: Instant
    /// Whether this rotation created it.
    public let isNew: Bool
}

/// What revoking a leaked signing key changed.
public enum KeyRevocation: Sendable, Equatable {
    /// The key was signing: a new key (`newKID`) signs from now, without notice to verifiers.
    case replaced(newKID: String)
    /// The key was not signing (retired, or scheduled and not started): it is unpublished, and the key that signed
    /// before (`signingKID`) goes on signing.
    case revoked(signingKID: String?)

    /// The key this revocation made, if the revoked key was signing.
    public var newKID: String? {
        if case .replaced(let kid) = self { kid } else { nil }
    }

    /// The key that signs from now on.
    public var signingKID: String? {
        switch self {
        case .replaced(let kid): kid
        case .revoked(let kid): kid
        }
    }
}
