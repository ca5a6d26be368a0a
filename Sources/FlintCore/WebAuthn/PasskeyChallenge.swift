package import Crypto

/// A WebAuthn challenge Flint issued: sealed (AES-256-GCM, like ``TOTPEnrollmentSession``) so it carries its own
/// purpose, account, RP ID, issue time and tenant, and is unpredictable (the seal's random nonce). The client signs the
/// challenge's bytes; finalize opens them from `clientDataJSON`, and spends them once through a counter keyed by
/// their hash in the ceremony's transaction, so nothing is stored at start and a challenge cannot be replayed.
package struct PasskeyChallenge: Sendable, Equatable {
    /// What a challenge is for.
    package enum Purpose: UInt8, Sendable {
        case enrollment = 1
        case signIn = 2
    }

    package var purpose: Purpose
    /// The enrolling account; empty for a sign-in (the account is not known before the assertion).
    package var localID: String
    /// The RP ID offered with the challenge.
    package var rpID: String
    package var issuedAt: Instant
    /// The tenant the ceremony runs in (empty for the default tenant): finalize accepts the challenge only there.
    package var tenant: String = ""

    /// How long a ceremony may take between start and finalize.
    package static let lifetime: Duration = .seconds(300)

    package init(purpose: Purpose, localID: String, rpID: String, issuedAt: Instant, tenant: String = "") {
        (self.purpose, self.localID, self.rpID, self.issuedAt, self.tenant) = (purpose, localID, rpID, issuedAt, tenant)
    }

    /// The challenge, base64url (the sealed bytes).
    /// - Throws: `CryptoKitError` when `key` is not an AES key.
    package func seal(key: SymmetricKey) throws -> String {
        var writer = PayloadWriter()
        writer.append([purpose.rawValue])
        writer.append(localID)
        writer.append(rpID)
        writer.append(issuedAt.millisecondsSince1970)
        if !tenant.isEmpty { writer.append(tenant) }
        return try SealedToken.seal(writer.bytes, kind: .passkeyChallenge, key: key)
    }

    /// Opens a challenge as `clientDataJSON` carries it; `nil` for anything Flint did not seal under `key`.
    package init?(opening text: String, key: SymmetricKey) {
        guard let payload = SealedToken.open(text, kind: .passkeyChallenge, key: key) else { return nil }
        var reader = PayloadReader(payload)
        guard let kind = reader.data(), kind.count == 1, let purpose = Purpose(rawValue: kind[0]), let localID = reader.string(),
            let rpID = reader.string(), let issued = reader.int64()
        else { return nil }
        // A tenant's challenge names its tenant after the issue time.
        var tenant = ""
        if !reader.isAtEnd {
            guard let named = reader.string(), !named.isEmpty, reader.isAtEnd else { return nil }
            tenant = named
        }
        self.init(purpose: purpose, localID: localID, rpID: rpID, issuedAt: Instant(millisecondsSince1970: issued), tenant: tenant)
    }

    /// Whether the challenge is too old at `now`.
    package func isExpired(now: Instant) -> Bool {
        now - issuedAt >= Self.lifetime || issuedAt > now + .seconds(60)
    }
}
