/// The set of keys a node knows, and which of them sign and are published at a given instant. The choice is made
/// from the clock alone, so every node that has read the same keys agrees without talking to the others, and a
/// restarted node keeps the schedule.
///
/// A key goes through these states: scheduled (published, not signing yet: verifiers fetch it before they meet a
/// token it signed), active (signs), retired (published until the last token it signed can have expired), then no
/// longer published. A revoked key (leaked) is neither published nor accepted from its revocation on.
package struct KeyRing: Sendable {
    /// A key's state at an instant.
    package enum State: String, Sendable {
        /// Published, not signing yet.
        case scheduled
        /// Signing.
        case active
        /// Not signing, still published for the tokens it signed.
        case retired
        /// Not signing and no longer published: every token it signed has expired.
        case expired
        /// Revoked: neither published nor accepted.
        case revoked
    }

    /// All known keys, the latest to start signing first.
    package let keys: [SigningKey]
    private let byKID: [String: SigningKey]

    /// How long a retired key stays published: the longest a token it signed lives (a session cookie, signed with
    /// the same keys as ID tokens: 14 days) plus an hour for clocks and verifiers' leeway.
    package static let retiredKeyGrace: Duration = .seconds(14 * 86_400 + 3600)

    /// How long a scheduled key is published before it signs, when the key endpoints are cached for `maxAge` and
    /// nodes re-read the keys every `reloadInterval` (a node that missed the change announcement publishes the key
    /// only from its next reload): the two added, plus five minutes for clocks and fetches in flight, so every
    /// verifier's cached copy has been fetched again after every node published the key.
    package static func publicationLead(keyCacheMaxAge maxAge: Duration, reloadInterval: Duration) -> Duration {
        maxAge + reloadInterval + .seconds(300)
    }

    /// Builds a ring from stored keys.
    package init(keys: [SigningKey]) {
        let sorted = keys.sorted { ($0.activatesAt, $0.createdAt) > ($1.activatesAt, $1.createdAt) }
        self.keys = sorted
        var map: [String: SigningKey] = [:]
        for key in sorted { map[key.kid] = key }
        self.byKID = map
    }

    /// The key with this `kid`, if known.
    package func key(kid: String) -> SigningKey? { byKID[kid] }

    /// The key that signs at `now`: the latest started, unrevoked key not retired by then. When none has started
    /// (this clock is behind the one that made the first key), the first scheduled unretired one. Called per token:
    /// a walk over the few keys, without allocating.
    package func signer(at now: Instant) -> SigningKey? {
        Self.signer(amongSorted: keys, at: now)
    }

    /// The key that signs at `now` among `keys` in any order (stored records, say), by the rule of ``signer(at:)``.
    package static func signer<Key: KeySchedule>(among keys: [Key], at now: Instant) -> Key? {
        signer(amongSorted: keys.sorted { ($0.activatesAt, $0.createdAt) > ($1.activatesAt, $1.createdAt) }, at: now)
    }

    /// ``signer(at:)``'s rule on keys sorted the latest to start signing first.
    private static func signer<Key: KeySchedule>(amongSorted keys: [Key], at now: Instant) -> Key? {
        var earliestScheduled: Key?
        for key in keys where key.revokedAt == nil && (key.retiredAt.map { now < $0 } ?? true) {
            if key.activatesAt <= now { return key }
            earliestScheduled = key
        }
        return earliestScheduled
    }

    /// `key`'s state at `now`.
    package func state(of key: SigningKey, at now: Instant) -> State {
        if key.revokedAt != nil { return .revoked }
        if let retired = key.retiredAt, retired <= now { return now - retired < Self.retiredKeyGrace ? .retired : .expired }
        if key.kid == signer(at: now)?.kid { return .active }
        return key.activatesAt > now ? .scheduled : .retired
    }

    /// The keys to publish (and accept) at `now`: every unrevoked key until its retirement's grace period is over,
    /// scheduled keys included.
    package func published(at now: Instant) -> [SigningKey] {
        keys.filter { isPublished($0, at: now) }
    }

    /// Whether `key` is published (and accepted) at `now`.
    package func isPublished(_ key: SigningKey, at now: Instant) -> Bool {
        if key.revokedAt != nil { return false }
        guard let retired = key.retiredAt else { return true }
        return now - retired < Self.retiredKeyGrace
    }
}

/// A key's schedule: when it was made, starts signing, retires and was revoked. What ``KeyRing`` decides from, for
/// loaded keys and stored records alike.
package protocol KeySchedule {
    /// The key ID.
    var kid: String { get }
    /// When it was made (published from then).
    var createdAt: Instant { get }
    /// When it starts signing.
    var activatesAt: Instant { get }
    /// When it stops signing, if a successor or a revocation has said so.
    var retiredAt: Instant? { get }
    /// When it was revoked.
    var revokedAt: Instant? { get }
}

extension SigningKey: KeySchedule {}
