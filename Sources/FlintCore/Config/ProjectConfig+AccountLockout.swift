/// `flint.accountLockout`: an email address whose password sign-ins fail this many times in a row, from any client
/// address, is locked for a while, longer after each further failure; a sign-in with the right password, a password
/// reset or an operator's unlock clears it. On by default.
///
/// ```yaml
/// flint:
///   accountLockout:
///     enabled: true          # false turns the lockout off
///     maxFailures: 5         # failures in a row before the first lock (default 5)
///     lockSeconds: 60        # the first lock; each failure after it doubles the next (default 60)
///     maxLockSeconds: 3600   # the longest lock (default 3600)
/// ```
extension ProjectConfig {
    /// The account lockout in force.
    package struct AccountLockout: Sendable, Equatable {
        /// Failures in a row before the first lock.
        package var maxFailures: Int64 = 5
        /// The first lock's length.
        package var firstLock: Duration = .seconds(60)
        /// The longest lock.
        package var maxLock: Duration = .seconds(3600)

        package init() {}

        /// How long the failures in a row are remembered after the latest: long enough to outlast any lock, so a
        /// lock is never forgotten before it ends.
        package var memory: Duration { max(.seconds(86_400), maxLock + maxLock) }

        /// The lock after `failures` failures in a row: none below ``maxFailures``, then the first lock, doubled for
        /// each failure beyond, at most ``maxLock``.
        package func lock(afterFailures failures: Int64) -> Duration? {
            guard failures >= maxFailures else { return nil }
            // A lock is at most a week: doubling stops long before an overflow.
            var lock = firstLock.inMilliseconds
            var doublings = failures - maxFailures
            while doublings > 0, lock < maxLock.inMilliseconds {
                lock *= 2
                doublings -= 1
            }
            return .milliseconds(min(lock, maxLock.inMilliseconds))
        }
    }

    /// The fields `flint.accountLockout` holds.
    static let accountLockoutFields: Set<String> = ["enabled", "maxFailures", "lockSeconds", "maxLockSeconds"]

    /// The account lockout, unless the section turns it off.
    package var accountLockout: AccountLockout? {
        let section = document["flint"]?["accountLockout"]?.objectValue ?? [:]
        if section["enabled"]?.boolValue == false { return nil }
        var lockout = AccountLockout()
        if case .number(let n)? = section["maxFailures"] { lockout.maxFailures = Int64(n) }
        if case .number(let n)? = section["lockSeconds"] { lockout.firstLock = .seconds(Int64(n)) }
        if case .number(let n)? = section["maxLockSeconds"] { lockout.maxLock = .seconds(Int64(n)) }
        lockout.maxLock = max(lockout.maxLock, lockout.firstLock)
        return lockout
    }

    /// Checks `flint.accountLockout`: `enabled` a boolean, `maxFailures` from 1 to 1000, `lockSeconds` from 1 and
    /// `maxLockSeconds` from `lockSeconds`, both at most a week.
    static func validateAccountLockout(_ doc: [String: JSONValue]) throws(AuthError) {
        guard let section = doc["flint"]?["accountLockout"] else { return }
        guard let object = section.objectValue else { throw invalid("flint.accountLockout must be an object") }
        if let unknown = object.keys.sorted().first(where: { !accountLockoutFields.contains($0) }) {
            throw invalid("flint.accountLockout has an unknown field: \(unknown)")
        }
        if let enabled = object["enabled"], enabled.boolValue == nil { throw invalid("flint.accountLockout.enabled must be a boolean") }
        func whole(_ name: String, _ range: ClosedRange<Double>) throws(AuthError) -> Double? {
            guard let value = object[name] else { return nil }
            guard case .number(let n) = value, n.rounded() == n, range.contains(n) else {
                throw invalid("flint.accountLockout.\(name) must be a whole number from \(Int(range.lowerBound)) to \(Int(range.upperBound))")
            }
            return n
        }
        let week = 7.0 * 86_400
        _ = try whole("maxFailures", 1...1000)
        let first = try whole("lockSeconds", 1...week) ?? 60
        if let longest = try whole("maxLockSeconds", 1...week), longest < first {
            throw invalid("flint.accountLockout.maxLockSeconds must be at least lockSeconds")
        }
    }
}
