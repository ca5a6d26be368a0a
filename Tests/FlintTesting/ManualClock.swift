import FlintCore
import Synchronization

#if canImport(FoundationEssentials)
    package import FoundationEssentials
#else
    package import Foundation
#endif

/// A clock that only moves when told to; the test double for ``WallClock``.
package final class ManualClock: WallClock {
    private let current: Mutex<Date>

    /// Creates a clock standing at `start`.
    package init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    package func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward by `seconds`.
    package func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
