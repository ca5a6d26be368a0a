import FlintCore
import FlintStore
import FlintTexts

/// The per-number caps of SMS codes, on the shared counters (exact across nodes). A code session locks after
/// ``ServerSettings/maxCodeAttempts`` wrong codes, but a new text starts a new session; these caps bound the texts a
/// number is sent and the wrong codes it is answered with, whichever session or fictional handle they come through.
extension PhoneCodes {
    private static let hour: Duration = .seconds(3600)
    private static let day: Duration = .seconds(86_400)

    /// Texts `phone` (E.164) may be sent: per hour and per day, sign-in and second-factor codes together
    /// (`flint.smsLimits.perNumberPerHour` and `perNumberPerDay`; 0 is off).
    func smsSendLimits(_ phone: String, _ limits: ProjectConfig.SMSLimits) -> [Limit] {
        [
            Limit(key: .number(tenant: .scoped, phone, .sends(per: .hour)), max: limits.perNumberPerHour, window: Self.hour),
            Limit(key: .number(tenant: .scoped, phone, .sends(per: .day)), max: limits.perNumberPerDay, window: Self.day),
        ].filter { $0.max > 0 }
    }

    /// Wrong codes `phone` (E.164) may be answered with: per hour and per day.
    func wrongCodeLimits(_ phone: String) -> [Limit] {
        [
            Limit(key: .number(tenant: .scoped, phone, .wrongCodes(per: .hour)), max: node.settings.wrongCodesPerNumberPerHour, window: Self.hour),
            Limit(key: .number(tenant: .scoped, phone, .wrongCodes(per: .day)), max: node.settings.wrongCodesPerNumberPerDay, window: Self.day),
        ]
    }

    /// The windows of ``wrongCodeLimits(_:)`` at `now`, in its order, as counters of the number a spent session proves.
    func wrongCodeCounters(_ now: Instant) -> [NumberCounter] {
        [
            NumberCounter(tenant: .scoped, .wrongCodes(per: .hour), windowStart: Limit.windowStart(now, window: Self.hour)),
            NumberCounter(tenant: .scoped, .wrongCodes(per: .day), windowStart: Limit.windowStart(now, window: Self.day)),
        ]
    }

    /// Checks a code inside `tx` and returns the number it proves, or Firebase's error (returned, not thrown, so the
    /// counted attempt commits with the rest of the caller's transaction). A sign-in code's number comes with what a
    /// phone sign-in needs: the account holding it, with its federated identities, read with the number's wrong-code
    /// counters (the store's phone sign-in reads choose their round trips).
    ///
    /// A wrong code counts one hit on the number's wrong-answer counters (an atomic increment; past the cap the
    /// answer is `TOO_MANY_ATTEMPTS_TRY_LATER`). A right code only reads them, and is refused when the number already
    /// had its share of wrong codes: every accepted code was preceded by fewer committed wrong ones than the cap, and
    /// a right code — the common case — costs reads, not writes. Guesses racing at the cap are bounded by each
    /// session's own attempt lock. A fictional handle has no stored session, so its wrong codes count on a counter of
    /// its own: past ``ServerSettings/maxCodeAttempts`` the handle is spent (`SESSION_EXPIRED`), as a session would be.
    func spend(
        _ proof: NumberProof, purpose: SMSPurpose, in tx: any CodeSessionsWrites & CountersWrites & AuditWrites & UsersReads, now: Instant
    ) async throws -> Result<ProvenNumber, AuthError> {
        let signIn = purpose == .signIn
        switch proof {
        case .verified(let phone):
            return .success(try await Self.proven(phone, counters: [], signIn: signIn, in: tx).number)
        case .storedSession(let id, let hash):
            let maxAttempts = node.settings.maxCodeAttempts
            // A sign-in's spend reads the account and the number's wrong-code counters as it spends; a wrong code
            // reads nothing more.
            let read =
                signIn
                ? try await tx.spendPhoneSignInCode(
                    sessionID: id, codeHash: hash, now: now, maxAttempts: maxAttempts, counters: wrongCodeCounters(now))
                : SpentCodeRead(outcome: try await tx.spendCode(sessionID: id, codeHash: hash, now: now, maxAttempts: maxAttempts))
            if case .wrongCode(_, let phone) = read.outcome, try await wrongCodeLimits(phone).count(in: tx, now: now) {
                return .failure(.tooManyAttempts)
            }
            let phone: String
            switch Self.provenNumber(read.outcome, purpose: purpose) {
            case .success(let number): phone = number
            case .failure(let error): return .failure(error)
            }
            let limits = wrongCodeLimits(phone)
            let hits = signIn ? read.hits : try await tx.counterValues(limits.windows(now))
            return limits.reached(hits) ? .failure(.tooManyAttempts) : .success(ProvenNumber(phone: phone, owner: read.owner))
        case .fictional(let handle):
            let limits = wrongCodeLimits(handle.phoneNumber)
            guard handle.codeMatches else {
                let tries = try await tx.incrementCounter(key: handle.counterKey, windowStart: .epoch, expiresAt: handle.expiresAt)
                if tries > node.settings.maxCodeAttempts { return .failure(Self.spentHandle) }
                return .failure(try await limits.count(in: tx, now: now) ? .tooManyAttempts : .invalidCode)
            }
            // The handle's wrong codes and the number's limits in one read (with the account, for a sign-in).
            let (number, hits) = try await Self.proven(
                handle.phoneNumber, counters: [(handle.counterKey, .epoch)] + limits.windows(now), signIn: signIn, in: tx)
            if hits[0] >= node.settings.maxCodeAttempts { return .failure(Self.spentHandle) }
            if limits.reached(hits.dropFirst()) { return .failure(.tooManyAttempts) }
            return .success(number)
        }
    }

    /// `phone` with — for a sign-in — its account, and the hits of `counters`, in one read.
    private static func proven(
        _ phone: String, counters: [(key: CounterKey, windowStart: Instant)], signIn: Bool, in tx: any CountersReads & UsersReads
    ) async throws -> (number: ProvenNumber, hits: [Int64]) {
        guard signIn else { return (ProvenNumber(phone: phone), try await tx.counterValues(counters)) }
        let read = try await tx.userWithIdentities(tenant: .scoped, phoneNumber: phone, counters: counters)
        return (ProvenNumber(phone: phone, owner: read.found), read.hits)
    }

    /// A fictional handle that took its share of wrong codes.
    private static let spentHandle = AuthError.sessionExpired.with(detail: "Too many incorrect codes. Request a new code.")
}

/// A code presented with a fictional number's handle: checked against the configured code before the store is
/// asked, counted in the store.
struct FictionalAttempt: Sendable {
    /// The fictional number (E.164).
    var phoneNumber: String
    /// The counter of this handle's wrong codes (the handle's SHA-256, so the key reveals nothing usable).
    var counterKey: CounterKey
    /// When the handle expires; its counter may be swept after that.
    var expiresAt: Instant
    /// Whether the code was the number's configured one.
    var codeMatches: Bool
}

/// A number a proof proved, with — for a sign-in code — the account holding it (`nil`: none, or not a sign-in).
struct ProvenNumber {
    var phone: String
    var owner: (user: UserRecord, identities: [FederatedIdentityRecord])?
}
