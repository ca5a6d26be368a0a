import FlintCore
import FlintStore
import FlintTexts
import Hummingbird
import Logging

/// `v2/accounts/mfaSignIn:start`: sends a code to the enrolled number of the chosen phone factor (never to a number
/// the caller supplies).
struct StartMFASignInRequest: Decodable {
    var pendingCredential: String?
    var enrollmentID: String?
    /// The app proof, beside a `phoneNumber` that is the masked hint and is not used.
    var phoneSignInInfo: SendVerificationCodeRequest?

    /// The app proof inside `phoneSignInInfo`.
    var proof: AppProof { phoneSignInInfo?.proof ?? AppProof() }

    private enum CodingKeys: String, CodingKey {
        case phoneSignInInfo
        case pendingCredential = "mfaPendingCredential"
        case enrollmentID = "mfaEnrollmentId"
    }
}

struct StartMFASignInResponse: ResponseEncodable {
    struct PhoneResponseInfo: Encodable { var sessionInfo: String }
    var phoneResponseInfo: PhoneResponseInfo
}

/// `v2/accounts/mfaSignIn:finalize`: the pending credential plus the second factor — an SMS code
/// (`phoneVerificationInfo`), a TOTP code (`totpVerificationInfo` with `mfaEnrollmentId`), or one of the account's
/// recovery codes (Flint extension field `recoveryCode`) — gives the session's tokens.
struct FinalizeMFASignInRequest: Decodable {
    var mfaPendingCredential: String?
    var mfaEnrollmentId: String?
    var phoneVerificationInfo: PhoneVerificationInfo?
    var totpVerificationInfo: TOTPVerificationInfo?
    var recoveryCode: String?

    /// The factor: at the top, or (as the SDKs send it for TOTP) inside `totpVerificationInfo`.
    var enrollmentID: String? { mfaEnrollmentId ?? totpVerificationInfo?.mfaEnrollmentId }
}

extension MFAFlow {
    /// Second-factor tries one account may make in 15 minutes, across pending credentials.
    static let secondFactorFailuresPerAccount: Int64 = 10

    /// Runs in the request's tenant, or the pending credential's when the request names none.
    func startMFASignIn(_ wire: StartMFASignInRequest, locales: [String], clientIP: String? = nil) async throws -> StartMFASignInResponse {
        try await gate.inTenant(ofPendingCredential: wire.pendingCredential) {
            try await startMFASignInHere(wire, locales: locales, clientIP: clientIP)
        }
    }

    private func startMFASignInHere(_ wire: StartMFASignInRequest, locales: [String], clientIP: String?) async throws -> StartMFASignInResponse {
        guard let text = wire.pendingCredential, !text.isEmpty else { throw AuthError.missingMFAPendingCredential }
        guard let enrollmentID = wire.enrollmentID, !enrollmentID.isEmpty else { throw AuthError.missingMFAEnrollmentID }
        let credential = try gate.openPendingCredential(text)
        let enrollments = try await node.store.read { try await $0.mfaEnrollments(tenant: .scoped, localID: credential.localID) }
        guard let enrollment = enrollments.first(where: { $0.enrollmentID == enrollmentID }) else { throw AuthError.mfaEnrollmentNotFound }
        guard enrollment.factor == .phone, let phone = enrollment.phoneNumber else { throw AuthError.mfaProviderNotSupported }
        guard node.config.current.smsSecondFactorEnabled else { throw AuthError.smsMFANotEnabled }
        let sessionInfo = try await codes.sendCode(
            to: phone, purpose: .mfaSignIn, locales: locales, proof: wire.proof, clientIP: clientIP, forSignIn: false,
            account: credential.localID)
        return StartMFASignInResponse(phoneResponseInfo: .init(sessionInfo: sessionInfo))
    }

    /// Runs in the request's tenant, or the pending credential's when the request names none.
    func finalizeMFASignIn(_ wire: FinalizeMFASignInRequest) async throws -> MFATokensResponse {
        try await gate.inTenant(ofPendingCredential: wire.mfaPendingCredential) { try await finalizeMFASignInHere(wire) }
    }

    private func finalizeMFASignInHere(_ wire: FinalizeMFASignInRequest) async throws -> MFATokensResponse {
        guard let text = wire.mfaPendingCredential, !text.isEmpty else { throw AuthError.missingMFACredential }
        let credential = try gate.openPendingCredential(text)
        AuditOrigin.current.notes.subject = credential.localID
        let now = node.clock.now()
        // Every try reserves a slot before the factor is checked, so parallel guesses cannot slip past the limits;
        // a success gives it back. Per pending credential (past it, the credential is spent) and per account
        // (fresh credentials from repeated first-factor sign-ins do not buy more guesses).
        let perCredential = Limit(
            key: .secondFactorTries(credentialNonce: credential.nonce), max: Int64(node.settings.maxCodeAttempts), window: .seconds(600))
        let perAccount = Limit(
            key: .secondFactorFailures(tenant: .scoped, localID: credential.localID), max: Self.secondFactorFailuresPerAccount, window: .seconds(900))
        let (credentialOver, accountOver) = try await node.store.write { tx in
            (try await [perCredential].count(in: tx, now: now), try await [perAccount].count(in: tx, now: now))
        }
        if credentialOver { throw AuthError.invalidMFAPendingCredential.with(detail: "Too many incorrect codes. Sign in again.") }
        if accountOver { throw AuthError.tooManyAttempts }
        let claim = try await proveSecondFactor(wire, credential: credential, now: now)
        // `beforeSignIn` is told what the first factor's provider gave, as it would have been without a second factor.
        let facts = ProviderFacts(carried: credential.blockingFacts, sessionClaims: credential.sessionClaims)
        let result = try await ProviderFacts.$current.withValue(facts) {
            try await node.store.write { [self] tx in
                try await completeSignIn(credential, claim: claim, releasing: [perCredential, perAccount], in: tx, now: now)
            }
        }
        let (user, refresh, identities, sessionClaims) = try result.get()
        let tokens = try sessions.sessionTokens(
            user: user, refreshToken: refresh, provider: credential.signInProvider, now: now, secondFactor: claim, developerClaims: sessionClaims,
            identities: identities)
        return MFATokensResponse(tokens: tokens)
    }

    /// Finalize's transaction: gives back the reserved tries, puts the sign-in to the project's `beforeSignIn` function
    /// (``BlockingPhase``), stamps the account and stores its refresh token (with the first factor's session claims and
    /// the function's).
    private func completeSignIn(
        _ credential: MFAPendingCredential, claim: SecondFactorClaim, releasing limits: [Limit], in tx: some Writes, now: Instant
    ) async throws -> Result<(UserRecord, String, [FederatedIdentityRecord], [String: JSONValue]?), AuthError> {
        try await limits.release(in: tx, reservedAt: now)
        guard var user = try await tx.lockedUser(tenant: .scoped, localID: credential.localID), credential.issuedAt >= user.validSince,
            credential.revocationGeneration >= user.revocationGeneration
        else {
            return .failure(.invalidMFAPendingCredential)
        }
        guard !user.disabled else { return .failure(.userDisabled) }
        // The first factor's session claims (a SAML sign-in's attributes), under a function's own.
        var sessionClaims = credential.sessionClaims
        switch try await gate.blockingFunctionsAfterSecondFactor(tx, user: user, provider: credential.signInProvider) {
        case .disabled?: return .failure(.userDisabled)
        case .proceed(let updated, let claims)?:
            user = updated
            if let claims { sessionClaims = (sessionClaims ?? [:]).merging(claims) { $1 } }
        case nil: break
        }
        try await tx.recordSession(tenant: .scoped, localID: user.localID, at: now)
        (user.lastLoginAt, user.lastRefreshAt) = (now, now)
        let refresh = try await sessions.storeRefreshToken(
            tx, user: user, provider: credential.signInProvider, now: now, secondFactor: claim, developerClaims: sessionClaims)
        try await tx.audit(
            .signIn, uid: user.localID, at: now,
            ["method": .string(credential.signInProvider), "secondFactor": .string(claim.factor.rawValue), "result": "TOKENS"])
        return .success((user, refresh, try await tx.federatedIdentities(tenant: .scoped, localID: user.localID), sessionClaims))
    }

    /// Checks the second factor; a wrong code is `INVALID_CODE`.
    private func proveSecondFactor(
        _ wire: FinalizeMFASignInRequest, credential: MFAPendingCredential, now: Instant
    ) async throws -> SecondFactorClaim {
        let enrollments = try await node.store.read { try await $0.mfaEnrollments(tenant: .scoped, localID: credential.localID) }
        if let code = wire.recoveryCode {
            guard let normalized = RecoveryCodes.normalize(code) else { throw AuthError.invalidCode }
            let hash = RecoveryCodes.hash(normalized, key: secret.recoveryKey)
            let used = try await node.store.write { tx in
                try await tx.useRecoveryCode(tenant: .scoped, localID: credential.localID, hash: hash, now: now)
            }
            guard used else { throw AuthError.invalidCode }
            let left = try await node.store.read { try await $0.recoveryCodesLeft(tenant: .scoped, localID: credential.localID) }
            node.logger.notice("recovery code used for sign-in", metadata: ["uid": "\(credential.localID)", "recoveryCodesLeft": "\(left)"])
            return SecondFactorClaim(factor: .recoveryCode, identifier: "recovery_code")
        }
        if let totp = wire.totpVerificationInfo {
            guard node.config.current.totpSecondFactorEnabled else { throw AuthError.totpMFANotEnabled }
            guard let enrollmentID = wire.enrollmentID, !enrollmentID.isEmpty else { throw AuthError.missingMFAEnrollmentID }
            guard let enrollment = enrollments.first(where: { $0.enrollmentID == enrollmentID }) else { throw AuthError.mfaEnrollmentNotFound }
            guard enrollment.factor == .totp, let sealed = enrollment.sealedTOTPSecret else { throw AuthError.mfaProviderNotSupported }
            guard let code = totp.verificationCode, !code.isEmpty else { throw AuthError.missingCode }
            let secretBytes = try openTOTPSecret(sealed)
            guard
                let step = TOTP.matchingStep(
                    code: code, secret: secretBytes, at: now.secondsSince1970, adjacentIntervals: node.config.current.totpAdjacentIntervals,
                    parameters: TOTPParameters())
            else { throw AuthError.invalidCode }
            // Each time step's code works once, and never one older than the last accepted.
            guard try await node.store.write({ tx in try await tx.acceptTOTPStep(tenant: .scoped, enrollmentID: enrollmentID, step: step) }) else {
                throw AuthError.invalidCode.with(detail: "This code was already used. Wait for the next one.")
            }
            return SecondFactorClaim(factor: .totp, identifier: enrollmentID)
        }
        guard let info = wire.phoneVerificationInfo else { throw AuthError.mfaProviderNotSupported }
        guard node.config.current.smsSecondFactorEnabled else { throw AuthError.smsMFANotEnabled }
        let phone = try await codes.provePhoneCode(sessionInfo: info.sessionInfo, code: info.code, purpose: .mfaSignIn)
        guard let enrollment = enrollments.first(where: { $0.phoneNumber == phone }) else { throw AuthError.mfaEnrollmentNotFound }
        return SecondFactorClaim(factor: .phone, identifier: enrollment.enrollmentID)
    }
}
