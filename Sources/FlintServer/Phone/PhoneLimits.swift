import FlintCore
import FlintStore

/// The per-number caps of SMS codes, on the shared counters (exact across nodes). A code session locks after
/// ``ServerSettings/maxCodeAttempts`` wrong codes, but a new text starts a new session; these caps bound the texts a
/// number is sent and the wrong codes it is answered with, whichever session or fictional handle they come through.
extension AuthServices {
    private static let hour: Int64 = 3_600_000
    private static let day: Int64 = 86_400_000

    /// Texts `phone` (E.164) may be sent: per hour and per day, sign-in and second-factor codes together.
    func smsSendLimits(_ phone: String) -> [Limit] {
        [
            Limit(key: "sms-sent:h:\(phone)", max: settings.smsCodesPerNumberPerHour, window: Self.hour),
            Limit(key: "sms-sent:d:\(phone)", max: settings.smsCodesPerNumberPerDay, window: Self.day),
        ]
    }

    /// Wrong codes `phone` (E.164) may be answered with: per hour and per day.
    func wrongCodeLimits(_ phone: String) -> [Limit] {
        [
            Limit(key: "sms-wrong:h:\(phone)", max: settings.wrongCodesPerNumberPerHour, window: Self.hour),
            Limit(key: "sms-wrong:d:\(phone)", max: settings.wrongCodesPerNumberPerDay, window: Self.day),
        ]
    }

    /// Checks a code inside `tx` and returns the number it proves, or Firebase's error (returned, not thrown, so the
    /// counted attempt commits with the rest of the caller's transaction).
    ///
    /// Every check of a code reserves a wrong-answer hit on the number's counters first (so parallel guesses cannot
    /// slip past the caps); a right code, or a session that takes no guess (spent, expired, locked), gives it back.
    /// A fictional handle has no stored session, so its wrong codes count on a counter of its own: past
    /// ``ServerSettings/maxCodeAttempts`` the handle is spent (`SESSION_EXPIRED`), as a stored session would be.
    func spend(_ proof: NumberProof, purpose: SMSPurpose, in tx: any StoreTransaction, now: Int64) async throws -> Result<String, AuthError> {
        switch proof {
        case .verified(let phone):
            return .success(phone)
        case .storedSession(let id, let hash):
            guard let session = try await tx.codeSession(id: id) else { return .failure(.invalidSessionInfo) }
            let limits = wrongCodeLimits(session.phoneNumber)
            if try await count(limits, in: tx, now: now) { return .failure(.tooManyAttempts) }
            let outcome = try await tx.spendCode(sessionID: id, codeHash: hash, now: now, maxAttempts: settings.maxCodeAttempts)
            if case .wrongCode = outcome {} else { try await release(limits, in: tx, reservedAt: now) }
            return Self.provenNumber(outcome, purpose: purpose)
        case .fictional(let handle):
            let tries = try await tx.incrementCounter(key: handle.counterKey, windowStart: 0, expiresAt: handle.expiresAt)
            if tries > settings.maxCodeAttempts { return .failure(.sessionExpired.with(detail: "Too many incorrect codes. Request a new code.")) }
            let limits = wrongCodeLimits(handle.phoneNumber)
            if try await count(limits, in: tx, now: now) { return .failure(.tooManyAttempts) }
            guard handle.codeMatches else { return .failure(.invalidCode) }
            try await tx.releaseCounter(key: handle.counterKey, windowStart: 0)
            try await release(limits, in: tx, reservedAt: now)
            return .success(handle.phoneNumber)
        }
    }
}

/// A code presented with a fictional number's handle: checked against the configured code before the store is
/// asked, counted in the store.
struct FictionalAttempt: Sendable {
    /// The fictional number (E.164).
    var phoneNumber: String
    /// The counter of this handle's wrong codes (the handle's SHA-256, so the key reveals nothing usable).
    var counterKey: String
    /// When the handle expires (ms); its counter may be swept after that.
    var expiresAt: Int64
    /// Whether the code was the number's configured one.
    var codeMatches: Bool
}
