package import FlintCore
import FlintStore
import Synchronization

/// The node's copy of the signing keys, re-read from the store periodically (and at once when another node announces
/// a change) so a rotation or revocation made by any node (or by `flint keys`) is used and published by all. Which key
/// signs is decided from the clock (``KeyRing/signer(at:)``), so a scheduled key starts signing on every node at the
/// same instant without another read. Private keys are stored sealed with the master key (``SecretsAtRest``) and
/// opened here.
package final class KeyCache: Sendable {
    private let store: any AuthStore
    private let secrets: SecretsAtRest
    private let ring = Mutex(KeyRing(keys: []))

    /// The store aggregates its transactions touch: the keys and the master secret (config), the audit log.
    typealias Writes = ConfigWrites & AuditWrites

    init(store: any AuthStore, secrets: SecretsAtRest) {
        (self.store, self.secrets) = (store, secrets)
    }

    /// How this node's secrets are sealed.
    var sealing: SecretsAtRest { secrets }

    /// The current ring.
    package var current: KeyRing { ring.withLock { $0 } }

    /// Re-reads the keys; parses only keys not seen before.
    package func reload() async throws {
        let records = try await store.read { try await $0.signingKeys() }
        let known = current
        var keys: [SigningKey] = []
        for record in records {
            if var key = known.key(kid: record.kid) {
                (key.retiredAt, key.revokedAt) = (record.retiredAt, record.revokedAt)
                keys.append(key)
            } else {
                keys.append(
                    try SigningKey(
                        kid: record.kid, privateKeyPEM: try secrets.openPrivateKey(record.privateKeyPEM, kid: record.kid),
                        certificatePEM: record.certificatePEM, createdAt: record.createdAt, activatesAt: record.activatesAt,
                        retiredAt: record.retiredAt, revokedAt: record.revokedAt
                    )
                )
            }
        }
        let newRing = KeyRing(keys: keys)
        ring.withLock { $0 = newRing }
    }

    /// Creates the first key if the store has none that can sign (first start), then loads the ring.
    func ensureKey(clock: any WallClock, random: any RandomSource) async throws {
        try await reload()
        if current.signer(at: clock.now()) != nil { return }
        let now = clock.now()
        let record = try Self.newKeyRecord(now: now, activatesAt: now, random: random, secrets: secrets)
        try await store.write { tx in
            try await Self.addFirstKey(record, in: tx, now: now)
        }
        try await reload()
    }

    /// Adds `record` unless a key that can sign at `now` or later was added meanwhile.
    private static func addFirstKey(_ record: SigningKeyRecord, in tx: some Writes, now: Instant) async throws {
        if try await tx.signingKeys().contains(where: { $0.revokedAt == nil && $0.retiredAt.map { now < $0 } ?? true }) { return }
        try await tx.addSigningKey(record, retiringOthersAt: nil)
    }

    /// Schedules a new key: published at once, it starts signing `lead` later (``KeyRing/publicationLead(keyCacheMaxAge:reloadInterval:)``,
    /// so verifiers have fetched it from every node before they meet its tokens), when the keys signing until then
    /// retire (they stay published while their tokens live). While a scheduled key has not started, rotating again
    /// answers that key (and generates none). The new key is sealed with `secrets`' master key, after checking in the
    /// same transaction that the store's server secret opens with it, so a wrong key adds nothing.
    static func rotate(
        store: any AuthStore, secrets: SecretsAtRest, lead: Duration, clock: any WallClock, random: any RandomSource
    ) async throws -> ScheduledKey {
        let now = clock.now()
        if let pending = try await store.read({ tx in try await pendingKey(tx, secrets: secrets, at: now) }) { return pending }
        let record = try newKeyRecord(now: now, activatesAt: now + lead, random: random, secrets: secrets)
        let scheduled = try await store.write { tx in
            try await schedule(record, secrets: secrets, in: tx, now: now)
        }
        if scheduled.isNew { await store.announce(.keys) }
        return scheduled
    }

    /// Rotation's transaction: the pending key if one was scheduled meanwhile, else `record`, scheduled.
    private static func schedule(_ record: SigningKeyRecord, secrets: SecretsAtRest, in tx: some Writes, now: Instant) async throws -> ScheduledKey {
        if let pending = try await pendingKey(tx, secrets: secrets, at: now) { return pending }
        try await tx.addSigningKey(record, retiringOthersAt: record.activatesAt)
        return ScheduledKey(kid: record.kid, activatesAt: record.activatesAt, isNew: true)
    }

    /// The key an earlier rotation scheduled that has not started signing at `now`, after checking that the store's
    /// server secret opens with `secrets`' master key.
    private static func pendingKey(_ tx: some ConfigReads, secrets: SecretsAtRest, at now: Instant) async throws -> ScheduledKey? {
        if let stored = try await tx.masterSecret() { _ = try secrets.openServerSecret(stored) }
        let pending = try await tx.signingKeys().first { $0.revokedAt == nil && $0.retiredAt == nil && $0.activatesAt > now }
        return pending.map { ScheduledKey(kid: $0.kid, activatesAt: $0.activatesAt, isNew: false) }
    }

    /// Revokes a leaked key (unpublished at once: the tokens it signed stop verifying). When it is the key signing
    /// now, the emergency rotation: a new key signs at once and every other key stops signing now (staying published
    /// while its tokens live). A key that does not sign now (retired, or scheduled) is only revoked, and signing goes
    /// on unchanged, without a key verifiers have not fetched: a revoked scheduled key's predecessor no longer retires
    /// at its activation. Audited as an admin action of the current ``AuditOrigin``, in the same transaction.
    /// - Returns: what changed, or `nil` when no unrevoked key has ID `leakedKID` (nothing changes).
    static func revoke(
        _ leakedKID: String, store: any AuthStore, secrets: SecretsAtRest, clock: any WallClock, random: any RandomSource
    ) async throws -> KeyRevocation? {
        let now = clock.now()
        // The RSA key is generated before the transaction when the leaked key signs now; the transaction decides again.
        let keys = try await store.read { try await $0.signingKeys() }
        let replacement =
            KeyRing.signer(among: keys, at: now)?.kid == leakedKID
            ? try newKeyRecord(now: now, activatesAt: now, random: random, secrets: secrets) : nil
        let origin = AuditOrigin.current
        let revocation = try await store.write { tx in
            try await revoke(leakedKID, replacement: replacement, origin: origin, secrets: secrets, random: random, in: tx, now: now)
        }
        if revocation != nil { await store.announce(.keys) }
        return revocation
    }

    /// Revocation's transaction, which decides again from the keys it reads; `replacement` is the key made beforehand
    /// for a leaked key that signed then.
    private static func revoke(
        _ leakedKID: String, replacement: SigningKeyRecord?, origin: AuditOrigin, secrets: SecretsAtRest, random: any RandomSource,
        in tx: some Writes, now: Instant
    ) async throws -> KeyRevocation? {
        if let stored = try await tx.masterSecret() { _ = try secrets.openServerSecret(stored) }
        let keys = try await tx.signingKeys()
        guard let leaked = keys.first(where: { $0.kid == leakedKID && $0.revokedAt == nil }) else { return nil }
        let signing = KeyRing.signer(among: keys, at: now)
        guard try await tx.revokeSigningKey(kid: leakedKID, at: now) else { return nil }
        let revocation: KeyRevocation
        if signing?.kid == leakedKID {
            let record = try replacement ?? newKeyRecord(now: now, activatesAt: now, random: random, secrets: secrets)
            try await tx.addSigningKey(record, retiringOthersAt: now)
            revocation = .replaced(newKID: record.kid)
        } else {
            if leaked.activatesAt > now, leaked.retiredAt == nil { try await tx.unretireSigningKeys(retiredAt: leaked.activatesAt) }
            revocation = .revoked(signingKID: signing?.kid)
        }
        var detail: [String: JSONValue] = ["action": "revokeSigningKey", "kid": .string(leakedKID)]
        if let newKID = revocation.newKID { detail["newKid"] = .string(newKID) }
        try await tx.appendAuditEvent(origin.event(.adminAction, uid: nil, at: now, detail))
        return revocation
    }

    /// A freshly generated key in its stored form (its private half sealed), created at `now`, signing from `activatesAt`.
    private static func newKeyRecord(now: Instant, activatesAt: Instant, random: any RandomSource, secrets: SecretsAtRest) throws -> SigningKeyRecord
    {
        let key = try SigningKey.generate(now: now, random: random)
        return SigningKeyRecord(
            kid: key.kid, privateKeyPEM: try secrets.sealPrivateKey(key.privateKeyPEM, kid: key.kid), certificatePEM: key.certificatePEM,
            createdAt: now, activatesAt: activatesAt
        )
    }
}
