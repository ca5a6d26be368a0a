#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The source of the current time. Injected everywhere a rule depends on time, so tests can move it.
public protocol WallClock: Sendable {
    /// The current instant.
    func now() -> Date
}

/// The machine's clock.
public struct SystemClock: WallClock {
    /// Creates the system clock.
    public init() {}
    public func now() -> Date { Date() }
}
