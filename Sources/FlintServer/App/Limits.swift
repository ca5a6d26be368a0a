import FlintCore
import FlintStore

/// Abuse limits on shared counters (exact across nodes): fixed windows keyed by what is limited.
struct Limit: Sendable {
    /// Counter key, e.g. `pwfail:email:a@b.c`.
    let key: String
    /// Hits allowed per window.
    let max: Int64
    /// Window length.
    let window: Duration

    /// The start of the window `now` (ms) falls in.
    func windowStart(_ now: Int64) -> Int64 { now - now % window.inMilliseconds }
}

extension AuthServices {
    /// Takes back the hits ``count(_:in:now:)`` made at `reservedAt` (ms), e.g. once a reserved attempt succeeded.
    func release(_ limits: [Limit], in tx: any StoreTransaction, reservedAt: Int64) async throws {
        for limit in limits { try await tx.releaseCounter(key: limit.key, windowStart: limit.windowStart(reservedAt)) }
    }

    /// Counts a new account for `clientIP` inside `tx`: `false` when the address is past
    /// ``ServerSettings/newAccountsPerIPPerHour`` (the caller answers `TOO_MANY_ATTEMPTS_TRY_LATER` and creates
    /// nothing). Always `true` without a client address or with the limit off.
    func mayCreateAccount(from clientIP: String?, in tx: any StoreTransaction, now: Int64) async throws -> Bool {
        guard let clientIP, settings.newAccountsPerIPPerHour > 0 else { return true }
        let limit = Limit(key: "newaccount:ip:\(clientIP)", max: settings.newAccountsPerIPPerHour, window: .seconds(3600))
        return !(try await count([limit], in: tx, now: now))
    }

    /// Whether one of the limits already had its maximum of hits in the current window (a read; nothing is counted).
    func atMaximum(_ limits: [Limit], in reader: any StoreReader, now: Int64) async throws -> Bool {
        for limit in limits where try await reader.counterValue(key: limit.key, windowStart: limit.windowStart(now)) >= limit.max {
            return true
        }
        return false
    }

    /// Counts one hit on each limit inside `tx`; returns whether one went over its maximum.
    func count(_ limits: [Limit], in tx: any StoreTransaction, now: Int64) async throws -> Bool {
        var over = false
        for limit in limits {
            let start = limit.windowStart(now)
            let hits = try await tx.incrementCounter(key: limit.key, windowStart: start, expiresAt: start + limit.window.inMilliseconds)
            if hits > limit.max { over = true }
        }
        return over
    }
}
