import FlintCore
import FlintStore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The node's copy of the signing keys, re-read from the store periodically so a rotation made by any node
/// (or by `flint keys rotate`) is used and published by all within one reload interval. Private keys are stored
/// sealed with the master key (``SecretsAtRest``) and opened here.
final class KeyCache: Sendable {
    private let store: any AuthStore
    private let secrets: SecretsAtRest
    private let ring = Mutex(KeyRing(keys: []))

    init(store: any AuthStore, secrets: SecretsAtRest) {
        (self.store, self.secrets) = (store, secrets)
    }

    /// How this node's secrets are sealed.
    var sealing: SecretsAtRest { secrets }

    /// The current ring.
    var current: KeyRing { ring.withLock { $0 } }

    /// Re-reads the keys; parses only keys not seen before.
    func reload() async throws {
        let records = try await store.read { try await $0.signingKeys() }
        let known = current
        var keys: [SigningKey] = []
        for record in records {
            let retired = record.retiredAt.map { Date(timeIntervalSince1970: Double($0) / 1000) }
            if var key = known.key(kid: record.kid) {
                key.retiredAt = retired
                keys.append(key)
            } else {
                keys.append(
                    try SigningKey(
                        kid: record.kid, privateKeyPEM: try secrets.openPrivateKey(record.privateKeyPEM, kid: record.kid),
                        certificatePEM: record.certificatePEM,
                        createdAt: Date(timeIntervalSince1970: Double(record.createdAt) / 1000), retiredAt: retired
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
        let record = try Self.newKeyRecord(now: clock.now(), random: random, secrets: secrets)
        try await store.write { tx in
            if try await tx.signingKeys().contains(where: { $0.retiredAt == nil }) { return }
            try await tx.addSigningKey(record, retiringOthersAt: nil)
        }
        try await reload()
    }

    /// Adds a new active key and retires the others (they stay published through their grace period). The new key is
    /// sealed with `secrets`' master key, after checking in the same transaction that the store's server secret opens
    /// with it, so a wrong key adds nothing.
    static func rotate(store: any AuthStore, secrets: SecretsAtRest, clock: any WallClock, random: any RandomSource) async throws -> String {
        let now = clock.now()
        let record = try newKeyRecord(now: now, random: random, secrets: secrets)
        try await store.write { tx in
            if let stored = try await tx.masterSecret() { _ = try secrets.openServerSecret(stored) }
            try await tx.addSigningKey(record, retiringOthersAt: now.millisecondsSince1970)
        }
        await store.announce(.keys)
        return record.kid
    }

    /// A freshly generated key in its stored form (its private half sealed), created at `now`.
    private static func newKeyRecord(now: Date, random: any RandomSource, secrets: SecretsAtRest) throws -> SigningKeyRecord {
        let key = try SigningKey.generate(now: now, random: random)
        return SigningKeyRecord(
            kid: key.kid, privateKeyPEM: try secrets.sealPrivateKey(key.privateKeyPEM, kid: key.kid), certificatePEM: key.certificatePEM,
            createdAt: now.millisecondsSince1970
        )
    }
}

extension Date {
    /// Milliseconds since 1970.
    var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
    /// Seconds since 1970.
    var secondsSince1970: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }
}
