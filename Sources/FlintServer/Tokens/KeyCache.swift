import FlintCore
import FlintStore
import Synchronization

/// The node's copy of the signing keys, re-read from the store periodically so a rotation made by any node
/// (or by `flint keys rotate`) is used and published by all within one reload interval.
final class KeyCache: Sendable {
    private let store: any AuthStore
    private let ring = Mutex(KeyRing(keys: []))

    init(store: any AuthStore) {
        self.store = store
    }

    /// The current ring.
    var current: KeyRing { ring.withLock { $0 } }

    /// Re-reads the keys; parses only keys not seen before.
    func reload() async throws {
        let records = try await store.read { try await $0.signingKeys() }
        let known = current
        var keys: [SigningKey] = []
        for record in records {
            if var key = known.key(kid: record.kid) {
                key.retiredAt = record.retiredAt
                keys.append(key)
            } else {
                keys.append(
                    try SigningKey(
                        kid: record.kid, privateKeyPEM: record.privateKeyPEM, certificatePEM: record.certificatePEM,
                        createdAt: record.createdAt, retiredAt: record.retiredAt
                    )
                )
            }
        }
        let newRing = KeyRing(keys: keys)
        ring.withLock { $0 = newRing }
    }

    /// Creates the first key if the store has none (first start), then loads the ring.
    func ensureKey(clock: any WallClock, random: any RandomSource) async throws {
        try await reload()
        if current.active != nil { return }
        let record = try Self.newKeyRecord(now: clock.now(), random: random)
        try await store.write { tx in
            if try await tx.signingKeys().contains(where: { $0.retiredAt == nil }) { return }
            try await tx.addSigningKey(record, retiringOthersAt: nil)
        }
        try await reload()
    }

    /// Adds a new active key and retires the others (they stay published through their grace period).
    static func rotate(store: any AuthStore, clock: any WallClock, random: any RandomSource) async throws -> String {
        let now = clock.now()
        let record = try newKeyRecord(now: now, random: random)
        try await store.write { tx in try await tx.addSigningKey(record, retiringOthersAt: now) }
        await store.announce(.keys)
        return record.kid
    }

    /// A freshly generated key in its stored form, created at `now`.
    private static func newKeyRecord(now: Instant, random: any RandomSource) throws -> SigningKeyRecord {
        let key = try SigningKey.generate(now: now, random: random)
        return SigningKeyRecord(
            kid: key.kid, privateKeyPEM: key.privateKeyPEM, certificatePEM: key.certificatePEM, createdAt: now
        )
    }
}
