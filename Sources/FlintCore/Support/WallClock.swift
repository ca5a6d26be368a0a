#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The source of the current time. Injected everywhere a rule depends on time, so tests can move it.
///
/// An embedding application passes its own clock to the server only to control time (a simulation, a test);
/// ``SystemClock`` is the default.
public protocol WallClock: Sendable {
    /// The current instant, to the millisecond.
    func now() -> Instant
}

/// The machine's clock.
public struct SystemClock: WallClock {
    /// Creates the system clock.
    public init() {}
    public func now() -> Instant { Instant(Date()) }
}
