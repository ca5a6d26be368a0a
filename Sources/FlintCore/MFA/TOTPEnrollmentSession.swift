package import Crypto

/// What a TOTP enrollment's `totpSessionInfo.sessionInfo` stands for: the secret offered at `mfaEnrollment:start`,
/// carried by the client to `mfaEnrollment:finalize` so the server stores nothing until the user proves a code.
///
/// Sealed like ``MFAPendingCredential`` (AES-256-GCM under ``ServerSecret/mfaKey``) but with its own kind tag, so
/// neither string can be opened as the other.
package struct TOTPEnrollmentSession: Sendable, Equatable {
    /// The account enrolling.
    package var localID: String
    /// The TOTP secret shown to the user (as Base32 and an `otpauth://` URL).
    package var secret: [UInt8]
    /// When enrollment started (sealed as whole seconds).
    package var issuedAt: Instant

    /// How long the user has to finish enrolling by default (Flint's choice; the response's
    /// `finalizeEnrollmentTime` is `issuedAt` plus this).
    package static let defaultLifetime: Duration = .seconds(1800)

    /// Creates a session from its fields.
    package init(localID: String, secret: [UInt8], issuedAt: Instant) {
        self.localID = localID
        self.secret = secret
        self.issuedAt = issuedAt
    }

    /// The `sessionInfo` string: the fields encrypted and authenticated under `key` (``ServerSecret/mfaKey``).
    /// - Throws: `CryptoKitError` when `key` is not an AES key.
    package func seal(key: SymmetricKey) throws -> String {
        var writer = PayloadWriter()
        writer.append(localID)
        writer.append(secret)
        writer.append(issuedAt.secondsSince1970)
        return try SealedToken.seal(writer.bytes, kind: .totpEnrollmentSession, key: key)
    }

    /// Opens a `sessionInfo` string; `nil` for anything not sealed by ``seal(key:)`` under `key`.
    package init?(opening text: String, key: SymmetricKey) {
        guard let payload = SealedToken.open(text, kind: .totpEnrollmentSession, key: key) else { return nil }
        var reader = PayloadReader(payload)
        guard let localID = reader.string(), let secret = reader.data(), let issuedAt = reader.int64(), reader.isAtEnd else {
            return nil
        }
        self.init(localID: localID, secret: secret, issuedAt: Instant(secondsSince1970: issuedAt))
    }

    /// Whether the session is too old at `now`: it is accepted while `now - issuedAt < lifetime`.
    package func isExpired(now: Instant, lifetime: Duration = TOTPEnrollmentSession.defaultLifetime) -> Bool {
        now - issuedAt >= lifetime
    }
}
