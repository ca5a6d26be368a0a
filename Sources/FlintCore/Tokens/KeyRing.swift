/// The set of keys a node knows: the newest unretired key signs; every key whose tokens may still be alive is
/// published and accepted.
package struct KeyRing: Sendable {
    /// All known keys, newest first.
    package let keys: [SigningKey]
    /// The key that signs new tokens.
    package let active: SigningKey?
    private let byKID: [String: SigningKey]

    /// How long a retired key stays published: the ID-token lifetime plus a margin for verifier caches.
    package static let retiredKeyGrace: Duration = .seconds(3600 + 3600)

    /// Builds a ring from stored keys.
    package init(keys: [SigningKey]) {
        let sorted = keys.sorted { $0.createdAt > $1.createdAt }
        self.keys = sorted
        self.active = sorted.first { $0.retiredAt == nil }
        var map: [String: SigningKey] = [:]
        for key in sorted { map[key.kid] = key }
        self.byKID = map
    }

    /// The key with this `kid`, if known.
    package func key(kid: String) -> SigningKey? { byKID[kid] }

    /// The keys to publish at `now`: the active one and the retired ones still inside their grace period.
    package func published(at now: Instant) -> [SigningKey] {
        keys.filter { key in
            guard let retired = key.retiredAt else { return true }
            return now - retired < Self.retiredKeyGrace
        }
    }
}
