import FlintCore
import FlintStore
import Hummingbird
import Logging

/// `v2/accounts/passkeyEnrollment:start`: the signed-in user's `idToken` (a recent sign-in; with a second factor when
/// the account has some) → the `PublicKeyCredentialCreationOptions` for `navigator.credentials.create()`.
struct StartPasskeyEnrollmentRequest: Decodable {
    var idToken: String?
    var tenantId: String?
}

struct StartPasskeyEnrollmentResponse: ResponseEncodable {
    struct RelyingPartyJSON: Encodable {
        var id: String
        var name: String
    }
    struct UserJSON: Encodable {
        /// The user handle: the account's `localId` as bytes (base64, as every binary field of the answer).
        var id: String
        var name: String
        var displayName: String
    }
    struct Parameter: Encodable {
        var type = "public-key"
        var alg: Int64
    }
    struct Selection: Encodable {
        var residentKey = "required"
        var requireResidentKey = true
        var userVerification = "required"
    }
    struct Options: Encodable {
        var challenge: String
        var rp: RelyingPartyJSON
        var user: UserJSON
        var pubKeyCredParams = [Parameter(alg: COSEKey.es256Algorithm), Parameter(alg: COSEKey.rs256Algorithm)]
        var timeout = PasskeyFlow.timeoutMilliseconds
        var excludeCredentials: [CredentialDescriptorJSON]
        var authenticatorSelection = Selection()
        var attestation = "none"
    }
    var credentialCreationOptions: Options
}

/// `v2/accounts/passkeyEnrollment:finalize`: the `idToken`, the `authenticatorRegistrationResponse` and a `name` →
/// the passkey is stored, and the session's tokens are re-issued (`localId`, `idToken`, `refreshToken`, `expiresIn`).
struct FinalizePasskeyEnrollmentRequest: Decodable {
    var idToken: String?
    var tenantId: String?
    var authenticatorRegistrationResponse: RegistrationCredentialJSON?
    var name: String?
    var displayName: String?
}

struct FinalizePasskeyEnrollmentResponse: ResponseEncodable {
    var localId: String
    var idToken: String
    var refreshToken: String
    var expiresIn: String
}

extension PasskeyFlow {
    /// The enrolling account: a fresh sign-in, with a second factor if the account has some.
    func enrollingUser(_ idToken: String?) async throws -> (VerifiedIDToken, UserRecord) {
        let (token, user) = try await sessions.authenticate(idToken: idToken)
        try sessions.requireRecentSignIn(token)
        let enrollments = try await node.store.read { [gate] in try await gate.activeEnrollments(user.localID, in: $0) }
        try sessions.requireSecondFactorSession(token, enrollments: enrollments)
        return (token, user)
    }

    func startEnrollment(_ wire: StartPasskeyEnrollmentRequest, origin: String?) async throws -> StartPasskeyEnrollmentResponse {
        let (_, user) = try await enrollingUser(wire.idToken)
        let existing = try await node.store.read { try await $0.passkeys(tenant: .scoped, localID: user.localID) }
        guard existing.count < Self.maxPasskeys else { throw AuthError.invalidArgument("Too many passkeys: withdraw one first.") }
        let (challenge, rpID) = try issueChallenge(.enrollment, localID: user.localID, origin: origin)
        let name = user.email ?? user.phoneNumber ?? user.localID
        return StartPasskeyEnrollmentResponse(
            credentialCreationOptions: .init(
                challenge: PasskeyBytes.answer(challenge), rp: .init(id: rpID, name: node.settings.projectID),
                user: .init(id: ImportBase64.encode(Array(user.localID.utf8)), name: name, displayName: user.displayName ?? name),
                excludeCredentials: existing.map {
                    CredentialDescriptorJSON(
                        id: PasskeyBytes.answer($0.credentialID), transports: $0.transports.isEmpty ? nil : $0.transports)
                }))
    }

    func finalizeEnrollment(_ wire: FinalizePasskeyEnrollmentRequest) async throws -> FinalizePasskeyEnrollmentResponse {
        let (token, user) = try await enrollingUser(wire.idToken)
        guard let credential = wire.authenticatorRegistrationResponse else { throw AuthError.missingAuthenticatorResponse }
        try checkCredentialType(credential.type, credential.credentialType)
        guard let response = credential.response ?? credential.authenticatorAttestationResponse else {
            throw AuthError.missingAuthenticatorResponse
        }
        let (client, challenge, challengeText) = try openClientData(
            response.clientDataJSON ?? response.clientDataJson, type: "webauthn.create", purpose: .enrollment)
        guard challenge.localID == user.localID else { throw AuthError.invalidPasskeyChallenge }
        let attestationBytes = try PasskeyBytes.decode(response.attestationObject, field: "attestationObject")
        let attestation: Attestation
        do {
            attestation = try Attestation(attestationBytes, clientDataHash: client.hash)
            try attestation.authenticatorData.check(rpID: challenge.rpID)
        } catch {
            throw error.authError
        }
        let id = attestation.credential.credentialID
        if credential.id != nil || credential.rawId != nil || credential.credentialId != nil {
            guard try credentialID(credential.rawId, credential.id, credential.credentialId) == id else {
                throw AuthError.invalidAuthenticatorResponse.with(detail: "Credential ID does not match the attested one.")
            }
        }
        let now = node.clock.now()
        let record = PasskeyRecord(
            tenant: .scoped, credentialID: Base64URL.encode(id), localID: user.localID,
            publicKey: Base64URL.encode(attestation.credential.publicKeyBytes),
            rpID: challenge.rpID, signCount: Int64(attestation.authenticatorData.signCount),
            name: (wire.name ?? wire.displayName).map { String($0.prefix(Self.maxNameLength)) },
            transports: (response.transports ?? []).filter { !$0.isEmpty && !$0.contains(",") }, createdAt: now)
        let provider = token.signInProvider ?? "password"
        let result = try await node.store.write { [self] tx in
            try await enroll(record, token: token, spending: challenge, text: challengeText, provider: provider, in: tx, now: now)
        }
        let (updated, refresh) = try result.get()
        node.logger.notice("passkey enrolled", metadata: ["uid": "\(updated.localID)"])
        let tokens = try sessions.sessionTokens(
            user: updated, refreshToken: refresh, provider: provider, now: now, secondFactor: SecondFactorClaim(token), authTime: token.authTime)
        return FinalizePasskeyEnrollmentResponse(
            localId: updated.localID, idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn)
    }

    /// Finalize's transaction: spends the challenge, adds the passkey and stores the enrolling session's new refresh token.
    private func enroll(
        _ record: PasskeyRecord, token: VerifiedIDToken, spending challenge: PasskeyChallenge, text challengeText: String, provider: String,
        in tx: some Writes, now: Instant
    ) async throws -> Result<(UserRecord, String), AuthError> {
        guard try await spend(challenge, text: challengeText, in: tx) else { return .failure(.invalidPasskeyChallenge) }
        switch try await sessions.tokenUser(token, in: tx) {
        case .failure(let error): return .failure(error)
        case .success(var user):
            guard try await tx.passkeys(tenant: .scoped, localID: user.localID).count < Self.maxPasskeys else {
                return .failure(.invalidArgument("Too many passkeys: withdraw one first."))
            }
            do {
                try await tx.insertPasskey(record)
            } catch StoreError.conflict(.passkey) {
                return .failure(.passkeyExists)
            }
            try await tx.audit(.passkeyEnrolled, uid: user.localID, at: now, ["credentialId": .string(record.credentialID)])
            user.lastRefreshAt = now
            try await tx.updateUser(user)
            let refresh = try await sessions.storeRefreshToken(
                tx, user: user, provider: provider, now: now, secondFactor: SecondFactorClaim(token), authTime: token.authTime)
            return .success((user, refresh))
        }
    }
}
