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
