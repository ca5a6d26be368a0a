package import FlintCore
import Synchronization

/// A clock that only moves when told to; the test double for ``WallClock``.
package final class ManualClock: WallClock {
    private let current: Mutex<Instant>

    /// Creates a clock standing at `start` (by default 2027-01-15T08:00:00Z, 1 800 000 000 seconds after the epoch).
    package init(_ start: Instant = Instant(secondsSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    package func now() -> Instant { current.withLock { $0 } }

    /// Moves the clock forward by `span`.
    package func advance(by span: Duration) {
        current.withLock { $0 += span }
    }
}
