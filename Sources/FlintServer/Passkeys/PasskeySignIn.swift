import FlintCore
import FlintStore
import Hummingbird
import Logging

/// `v2/accounts/passkeySignIn:start` → the `PublicKeyCredentialRequestOptions` for `navigator.credentials.get()`:
/// a challenge, the RP ID, user verification required, and no `allowCredentials` (passkeys are discoverable).
struct StartPasskeySignInRequest: Decodable {
    var sessionId: String?
    var tenantId: String?
}

struct StartPasskeySignInResponse: ResponseEncodable {
    struct Options: Encodable {
        var challenge: String
        var rpId: String
        var timeout = PasskeyFlow.timeoutMilliseconds
        var userVerification = "required"
        var allowCredentials: [CredentialDescriptorJSON] = []
    }
    var credentialRequestOptions: Options
}

/// `v2/accounts/passkeySignIn:finalize`: the `authenticatorAuthenticationResponse` → the session (`localId`,
/// `idToken`, `refreshToken`, `expiresIn`), or the second-factor challenge of an account that has second factors.
struct FinalizePasskeySignInRequest: Decodable {
    var authenticatorAuthenticationResponse: AuthenticationCredentialJSON?
    var sessionId: String?
    var tenantId: String?
}

/// `passkeySignIn:finalize`'s own field.
struct PasskeySignInFields: Encodable, Sendable {
    var localId: String
}

typealias FinalizePasskeySignInResponse = SignInReply<PasskeySignInFields>

extension PasskeyFlow {
    /// A challenge for a discoverable-credential sign-in; each one counts on the client IP's limit (when set).
    func startSignIn(_ wire: StartPasskeySignInRequest, origin: String?, clientIP: String?) async throws -> StartPasskeySignInResponse {
        if let clientIP, node.settings.passkeyChallengesPerIP > 0 {
            let limits = [
                Limit(
                    key: .passkeyChallenges(clientIP: clientIP), max: node.settings.passkeyChallengesPerIP, window: node.settings.passkeyLimitWindow)
            ]
            let now = node.clock.now()
            if try await node.store.write({ tx in try await limits.count(in: tx, now: now) }) { throw AuthError.tooManyAttempts }
        }
        let (challenge, rpID) = try issueChallenge(.signIn, localID: "", origin: origin)
        return StartPasskeySignInResponse(credentialRequestOptions: .init(challenge: PasskeyBytes.answer(challenge), rpId: rpID))
    }

    /// Verifies the assertion against the stored credential (RP ID, flags, signature, counter), then signs its account
    /// in through the first-factor gate, in one transaction that spends the challenge and moves the counter. Each try
    /// reserves a failure slot per credential ID from its client IP, and per client IP, before anything is checked
    /// (parallel tries cannot slip past); a sign-in gives it back. Past either limit the answer is
    /// `TOO_MANY_ATTEMPTS_TRY_LATER`. Failures never count per credential alone: a signature cannot be guessed, and
    /// anyone who knows a credential ID (it is no secret) could otherwise lock its owner out.
    func finalizeSignIn(_ wire: FinalizePasskeySignInRequest, clientIP: String?) async throws -> FinalizePasskeySignInResponse {
        guard let credential = wire.authenticatorAuthenticationResponse else { throw AuthError.missingAuthenticatorResponse }
        try checkCredentialType(credential.type, credential.credentialType)
        guard let response = credential.response ?? credential.authenticatorAssertionResponse else {
            throw AuthError.missingAuthenticatorResponse
        }
        let rawID = try credentialID(credential.rawId, credential.id, credential.credentialId)
        // WebAuthn credential IDs are at most 1023 bytes; a longer one would only make a long counter key.
        guard rawID.count <= Self.maxCredentialIDLength else { throw AuthError.invalidAuthenticatorResponse.with(detail: "Invalid credential ID.") }
        let id = Base64URL.encode(rawID)
        let limits = failureLimits(credentialID: id, clientIP: clientIP)
        let start = node.clock.now()
        if try await node.store.write({ tx in try await limits.count(in: tx, now: start) }) { throw AuthError.tooManyAttempts }
        let (client, challenge, challengeText) = try openClientData(
            response.clientDataJSON ?? response.clientDataJson, type: "webauthn.get", purpose: .signIn)
        let authenticatorData = try PasskeyBytes.decode(response.authenticatorData, field: "authenticatorData")
        let signature = try PasskeyBytes.decode(response.signature, field: "signature")
        guard let passkey = try await node.store.read({ try await $0.passkey(tenant: .scoped, credentialID: id) }) else {
            throw AuthError.passkeyNotFound
        }
        if let handle = response.userHandle, !handle.isEmpty {
            guard try PasskeyBytes.decode(handle, field: "userHandle") == Array(passkey.localID.utf8) else {
                throw AuthError.invalidAuthenticatorResponse.with(detail: "Invalid userHandle.")
            }
        }
        guard passkey.rpID == challenge.rpID else { throw AuthError.invalidAuthenticatorResponse.with(detail: "Invalid RP ID for this passkey.") }
        let newCount: UInt32
        do {
            guard let keyBytes = Base64URL.decode(passkey.publicKey) else { throw WebAuthnError.invalid("stored public key") }
            newCount = try Assertion.verify(
                authenticatorData: authenticatorData, clientDataHash: client.hash, signature: signature, key: try COSEKey(bytes: keyBytes),
                rpID: passkey.rpID, storedSignCount: UInt32(clamping: passkey.signCount))
        } catch {
            if case .counterRegressed? = error as? WebAuthnError {
                node.logger.warning("passkey counter did not increase: possibly cloned authenticator", metadata: ["uid": "\(passkey.localID)"])
            }
            throw error.authError
        }
        let now = node.clock.now()
        let provider = Self.provider
        let outcome = try await node.store.write { [self] tx in
            try await signIn(
                passkey, id: id, newCount: newCount, spending: challenge, text: challengeText, releasing: limits, reservedAt: start, in: tx, now: now)
        }
        let (user, _, session) = try gate.answer(outcome, provider: provider, now: now)
        return FinalizePasskeySignInResponse(fields: PasskeySignInFields(localId: user.localID), session: session)
    }

    /// Finalize's transaction, after the assertion checked out: spends the challenge, moves the counter, gives the
    /// failure slots back and signs the account in through the gate.
    private func signIn(
        _ passkey: PasskeyRecord, id: String, newCount: UInt32, spending challenge: PasskeyChallenge, text challengeText: String,
        releasing limits: [Limit],
        reservedAt start: Instant, in tx: some Writes, now: Instant
    ) async throws -> SignInOutcome {
        guard try await spend(challenge, text: challengeText, in: tx) else { return .failed(.invalidPasskeyChallenge) }
        guard let user = try await tx.lockedUser(tenant: .scoped, localID: passkey.localID) else { return .failed(.passkeyNotFound) }
        guard !user.disabled else { return .failed(.userDisabled) }
        // The counter moves from the value the assertion was checked against: a concurrent sign-in that moved it
        // first wins (one use per counter value); a credential withdrawn meanwhile is gone.
        guard try await tx.advancePasskeyCounter(tenant: .scoped, credentialID: id, from: passkey.signCount, to: Int64(newCount)) else {
            guard let current = try await tx.passkey(tenant: .scoped, credentialID: id), current.localID == user.localID else {
                return .failed(.passkeyNotFound)
            }
            return .failed(WebAuthnError.counterRegressed.authError)
        }
        try await limits.release(in: tx, reservedAt: start)
        let verdict = try await gate.firstFactorGate(tx, localID: user.localID, provider: Self.provider)
        if case .refuse(let error) = verdict.decision { return .failed(error) }
        try await tx.recordSignIn(tenant: .scoped, localID: user.localID, at: now)
        return try await gate.pass(verdict, tx, user: user, provider: Self.provider, isNew: false, now: now)
    }

    /// The failure limits of a passkey sign-in: per credential ID from one client IP, and per client IP.
    func failureLimits(credentialID: String, clientIP: String?) -> [Limit] {
        let window = node.settings.passkeyLimitWindow
        let perCredential = CounterKey.passkeyFailures(credentialID: credentialID, clientIP: clientIP)
        var limits = [Limit(key: perCredential, max: node.settings.passkeyFailuresPerCredential, window: window)]
        if let clientIP, node.settings.passkeyFailuresPerIP > 0 {
            limits.append(Limit(key: .passkeyFailures(clientIP: clientIP), max: node.settings.passkeyFailuresPerIP, window: window))
        }
        return limits
    }
}
