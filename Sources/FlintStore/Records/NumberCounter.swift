public import FlintCore

/// A counter a phone number has of its own, named before the number is known (a code's number is known once the code
/// is spent): its key is ``prefix`` followed by the number, in one window.
public struct NumberCounter: Sendable, Hashable {
    /// What the key starts with (`sms-wrong:h:`).
    public var prefix: String
    /// The start of the window read.
    public var windowStart: Instant

    public init(prefix: String, windowStart: Instant) {
        self.prefix = prefix
        self.windowStart = windowStart
    }

    /// The counter's key for `phoneNumber` (E.164).
    public func key(for phoneNumber: String) -> String { prefix + phoneNumber }
}
