package import Crypto

/// What the opaque `mfaPendingCredential` stands for: a first factor passed by a user enrolled in MFA, who gets
/// this string instead of tokens and trades it, with a second factor, at `mfaSignIn:finalize`.
///
/// Stateless: everything is sealed into the string (see ``seal(key:)``); the `nonce` names this credential so the
/// caller can count attempts against it.
package struct MFAPendingCredential: Sendable, Equatable {
    /// The account that passed its first factor.
    package var localID: String
    /// The first factor's provider ID (`password`, `phone`, `emailLink`...), for the ID token's `sign_in_provider`.
    package var signInProvider: String
    /// When the first factor was passed, the ID token's `auth_time` (sealed as whole seconds).
    package var authTime: Instant
    /// When this credential was issued (sealed as whole seconds).
    package var issuedAt: Instant
    /// 16 random bytes that identify this credential (for counting attempts).
    package var nonce: [UInt8]
    /// The account's revocation generation when the first factor was passed: a revocation after it (in the same
    /// second too) voids the credential.
    package var revocationGeneration: Int64 = 0
    /// The account's tenant (empty for the default tenant): the credential is accepted only there.
    package var tenant: String = ""
    /// The first factor's session claims (a SAML or OIDC sign-in's `firebase.sign_in_attributes`, kept under the
    /// reserved `firebase` name as the refresh token keeps them), so the tokens the second factor earns carry what the
    /// first factor alone would have given.
    package var sessionClaims: [String: JSONValue]?
    /// What the first factor's provider gave that a `beforeSignIn` blocking function is told at `mfaSignIn:finalize`
    /// (its event's `raw_user_info` and forwarded `oauth_*` credentials), as the function would have been told without
    /// a second factor. Sealed (encrypted) like the rest.
    package var blockingFacts: [String: JSONValue]?

    /// The most bytes ``sessionClaims`` and ``blockingFacts`` may take together (as JSON): a credential stays small
    /// enough to travel in the client's requests.
    package static let maxCarriedBytes = 32_768

    /// Thrown by ``seal(key:)`` when ``sessionClaims`` and ``blockingFacts`` take more than ``maxCarriedBytes``.
    package struct TooLarge: Error, Sendable {
        /// How many bytes they took.
        package let bytes: Int
    }

    /// Bytes in a fresh ``nonce``.
    package static let nonceLength = 16
    /// How long a credential is accepted by default.
    package static let defaultLifetime: Duration = .seconds(300)

    /// Creates a credential from its fields.
    package init(localID: String, signInProvider: String, authTime: Instant, issuedAt: Instant, nonce: [UInt8]) {
        self.localID = localID
        self.signInProvider = signInProvider
        self.authTime = authTime
        self.issuedAt = issuedAt
        self.nonce = nonce
    }

    /// Creates a credential with a fresh random ``nonce``.
    package init(localID: String, signInProvider: String, authTime: Instant, issuedAt: Instant, using random: any RandomSource) {
        self.init(
            localID: localID, signInProvider: signInProvider, authTime: authTime, issuedAt: issuedAt,
            nonce: random.bytes(Self.nonceLength))
    }

    /// The `mfaPendingCredential` string: the fields encrypted and authenticated with AES-256-GCM under `key`
    /// (``ServerSecret/mfaKey``), base64url-encoded behind a version byte.
    /// - Throws: ``TooLarge`` when the session claims and blocking facts take more than ``maxCarriedBytes``;
    ///   `CryptoKitError` when `key` is not an AES key.
    package func seal(key: SymmetricKey) throws -> String {
        var writer = PayloadWriter()
        writer.append(localID)
        writer.append(signInProvider)
        writer.append(authTime.secondsSince1970)
        writer.append(issuedAt.secondsSince1970)
        writer.append(nonce)
        writer.append(revocationGeneration)
        // The tenant follows for a tenant's account, or (empty) before the session claims; the claims (`null` for none)
        // before the blocking facts.
        if !tenant.isEmpty || sessionClaims != nil || blockingFacts != nil { writer.append(tenant) }
        var carried = 0
        if sessionClaims != nil || blockingFacts != nil {
            let claims = sessionClaims.map { JSONValue.object($0).serialized() } ?? Array("null".utf8)
            let facts = blockingFacts.map { JSONValue.object($0).serialized() }
            carried = claims.count + (facts?.count ?? 0)
            // Never cut short (a credential that would not open): refused whole, below the payload's 65 535-byte strings.
            guard carried <= Self.maxCarriedBytes else { throw TooLarge(bytes: carried) }
            writer.append(claims)
            if let facts { writer.append(facts) }
        }
        let sealed = try SealedToken.seal(writer.bytes, kind: .mfaPendingCredential, key: key)
        // Nor one that would not open for its length (long IDs beside the carried bytes).
        guard sealed.utf8.count <= SealedToken.maxPendingCredentialLength else { throw TooLarge(bytes: carried) }
        return sealed
    }

    /// Opens an `mfaPendingCredential` string; `nil` for anything not sealed by ``seal(key:)`` under `key`
    /// (forged, altered, truncated, another kind of sealed string, or another key).
    package init?(opening text: String, key: SymmetricKey) {
        guard let payload = SealedToken.open(text, kind: .mfaPendingCredential, key: key) else { return nil }
        var reader = PayloadReader(payload)
        guard let localID = reader.string(), let provider = reader.string(), let authTime = reader.int64(),
            let issuedAt = reader.int64(), let nonce = reader.data()
        else { return nil }
        self.init(
            localID: localID, signInProvider: provider, authTime: Instant(secondsSince1970: authTime),
            issuedAt: Instant(secondsSince1970: issuedAt), nonce: nonce)
        // Credentials sealed before the generation existed end after the nonce; the tenant follows for a tenant's account.
        if !reader.isAtEnd {
            guard let generation = reader.int64() else { return nil }
            revocationGeneration = generation
            if !reader.isAtEnd {
                guard let tenant = reader.string() else { return nil }
                self.tenant = tenant
                if reader.isAtEnd {
                    guard !tenant.isEmpty else { return nil }
                } else {
                    guard let bytes = reader.data(), let claims = try? JSONValue(parsing: bytes) else { return nil }
                    if claims != .null {
                        guard let object = claims.objectValue else { return nil }
                        sessionClaims = object
                    }
                    if !reader.isAtEnd {
                        guard let bytes = reader.data(), reader.isAtEnd, let facts = (try? JSONValue(parsing: bytes))?.objectValue else { return nil }
                        blockingFacts = facts
                    }
                }
            }
        }
    }

    /// Whether the credential is too old at `now`: it is accepted while `now - issuedAt < lifetime`.
    package func isExpired(now: Instant, lifetime: Duration = MFAPendingCredential.defaultLifetime) -> Bool {
        now - issuedAt >= lifetime
    }
}
