import FlintCore
import FlintStore
import FlintTexts
import Hummingbird
import Logging

/// `v2/accounts/mfaEnrollment:start`: a phone (`phoneEnrollmentInfo`, code by SMS) or TOTP (`totpEnrollmentInfo`,
/// a new shared secret) second factor for the signed-in user.
struct StartEnrollmentRequest: Decodable {
    var idToken: String?
    /// In a MANDATORY project, a user without second factors enrols with the pending credential of the sign-in
    /// (Flint extension), and gets tokens only once enrolled.
    var pendingCredential: String?
    /// The number to enrol and the app proof, as `sendVerificationCode` takes them.
    var phone: SendVerificationCodeRequest?
    /// Firebase's `StartMfaTotpRequestInfo` has no fields Flint reads: its presence asks for TOTP.
    var totp: [String: JSONValue]?

    private enum CodingKeys: String, CodingKey {
        case idToken
        case pendingCredential = "mfaPendingCredential"
        case phone = "phoneEnrollmentInfo"
        case totp = "totpEnrollmentInfo"
    }
}

struct StartEnrollmentResponse: ResponseEncodable {
    struct PhoneSessionInfo: Encodable { var sessionInfo: String }
    struct TOTPSessionInfo: Encodable {
        var sharedSecretKey: String
        var verificationCodeLength: Int
        var hashingAlgorithm: String
        var periodSec: Int
        var sessionInfo: String
        var finalizeEnrollmentTime: String
    }
    var phoneSessionInfo: PhoneSessionInfo?
    var totpSessionInfo: TOTPSessionInfo?
}

/// `v2/accounts/mfaEnrollment:finalize`: the code (SMS) or one-time password (TOTP) proves the factor; it is added,
/// and the session's tokens are re-issued with the second-factor claims. The first enrolment also returns ten
/// one-time recovery codes (Flint extension field `recoveryCodes`).
struct FinalizeEnrollmentRequest: Decodable {
    var idToken: String?
    var mfaPendingCredential: String?
    var displayName: String?
    var phoneVerificationInfo: PhoneVerificationInfo?
    var totpVerificationInfo: TOTPVerificationInfo?
}

extension MFAFlow {
    /// How long a TOTP enrolment may take between start and finalize.
    static let totpEnrollmentWindow: Duration = .seconds(600)

    /// Who is enrolling: a signed-in user (ID token), or — where enrolment is MANDATORY for the first factor — a user
    /// between first factor and enrolment (pending credential).
    struct Enrollee: Sendable {
        var user: UserRecord
        var provider: String
        /// The ID token, when the caller sent one (re-checked for revocation when the factor is added).
        var token: VerifiedIDToken?
        /// The sign-in the session stems from.
        var authTime: Instant
        /// The first factor's session claims a pending credential carries (a SAML sign-in's attributes).
        var sessionClaims: [String: JSONValue]? = nil
    }

    /// The checks every enrolment step makes on the caller: a fresh sign-in with a first factor that can carry MFA,
    /// and a verified email.
    func enrollingUser(idToken: String?, pendingCredential: String?) async throws -> Enrollee {
        if idToken == nil, let text = pendingCredential {
            let credential = try gate.openPendingCredential(text)
            // Enrolment is mandatory for the first factor the credential stands for (the project's or its own state).
            guard node.config.current.mfaState(forFirstFactor: credential.signInProvider) == .mandatory else { throw AuthError.missingIDToken }
            guard let user = try await node.store.read({ try await $0.user(tenant: .scoped, localID: credential.localID) }) else {
                throw AuthError.invalidMFAPendingCredential
            }
            guard !user.disabled, credential.issuedAt >= user.validSince, credential.revocationGeneration >= user.revocationGeneration else {
                throw AuthError.invalidMFAPendingCredential
            }
            // Only the first factor of an account without any second factor: a pending credential must never let
            // someone add a factor to an account that is protected by one.
            guard try await node.store.read({ try await $0.mfaEnrollments(tenant: .scoped, localID: user.localID) }).isEmpty else {
                throw AuthError.missingIDToken
            }
            guard user.email != nil, user.emailVerified else { throw AuthError.unverifiedEmail }
            return Enrollee(
                user: user, provider: credential.signInProvider, token: nil, authTime: credential.authTime, sessionClaims: credential.sessionClaims)
        }
        let (token, user) = try await sessions.authenticate(idToken: idToken)
        guard let provider = token.signInProvider, Self.canCarrySecondFactor(provider) else { throw AuthError.mfaUnsupportedFirstFactor }
        guard user.email != nil, user.emailVerified else { throw AuthError.unverifiedEmail }
        try sessions.requireRecentSignIn(token)
        try sessions.requireSecondFactorSession(
            token, enrollments: try await node.store.read { try await $0.mfaEnrollments(tenant: .scoped, localID: user.localID) })
        return Enrollee(
            user: user, provider: provider, token: token, authTime: token.authTime, sessionClaims: try await sessionClaims(of: token, user: user))
    }

    /// The session claims of the session `token` was minted for — its refresh token's: a SAML or OIDC sign-in's
    /// `sign_in_attributes`, a blocking function's claims — which the tokens an enrolment re-issues keep, as Firebase's
    /// keep the sign-in's claims; the token's own `firebase.sign_in_attributes` when it names no stored session.
    private func sessionClaims(of token: VerifiedIDToken, user: UserRecord) async throws -> [String: JSONValue]? {
        if let sessionID = token.sessionID,
            let session = try await node.store.read({ try await $0.session(tenant: .scoped, localID: user.localID, sessionID: sessionID) })
        {
            return session.developerClaims.flatMap { try? JSONValue(parsing: Array($0.utf8)).objectValue }
        }
        return token.payload["firebase"]?["sign_in_attributes"]?.objectValue.map(Sessions.signInAttributesClaims)
    }

    /// Phone, anonymous and custom-token sign-ins cannot have second factors (as Firebase).
    static func canCarrySecondFactor(_ provider: String) -> Bool {
        !["phone", "anonymous", "custom"].contains(provider)
    }

    /// Runs in the request's tenant (a named one, else its ID token's), or the pending credential's when it names none.
    func startEnrollment(_ wire: StartEnrollmentRequest, locales: [String], clientIP: String? = nil) async throws -> StartEnrollmentResponse {
        try await gate.inTenant(ofPendingCredential: wire.idToken == nil ? wire.pendingCredential : nil) {
            try await startEnrollmentHere(wire, locales: locales, clientIP: clientIP)
        }
    }

    private func startEnrollmentHere(_ wire: StartEnrollmentRequest, locales: [String], clientIP: String?) async throws -> StartEnrollmentResponse {
        let config = node.config.current
        if wire.totp != nil && wire.phone == nil {
            guard config.totpSecondFactorEnabled else { throw AuthError.totpMFANotEnabled }
            let user = try await enrollingUser(idToken: wire.idToken, pendingCredential: wire.pendingCredential).user
            let enrollments = try await node.store.read { try await $0.mfaEnrollments(tenant: .scoped, localID: user.localID) }
            guard enrollments.count < Self.maxSecondFactors else { throw AuthError.secondFactorLimitExceeded }
            let secretBytes = TOTP.generateSecret(using: node.random)
            let now = node.clock.now().wholeSecond
            let session = TOTPEnrollmentSession(localID: user.localID, secret: secretBytes, issuedAt: now)
            let parameters = TOTPParameters()
            return StartEnrollmentResponse(
                totpSessionInfo: .init(
                    sharedSecretKey: Base32.encode(secretBytes), verificationCodeLength: parameters.digits,
                    hashingAlgorithm: parameters.algorithm.rawValue, periodSec: parameters.period,
                    sessionInfo: try session.seal(key: secret.mfaKey),
                    finalizeEnrollmentTime: RFC3339.format(now + Self.totpEnrollmentWindow)))
        }
        guard config.smsSecondFactorEnabled else { throw AuthError.smsMFANotEnabled }
        let user = try await enrollingUser(idToken: wire.idToken, pendingCredential: wire.pendingCredential).user
        guard let phoneInfo = wire.phone else { throw AuthError.missingPhoneEnrollmentInfo }
        let phone = try PhoneNumber(wire: phoneInfo.phoneNumber)
        let enrollments = try await node.store.read { try await $0.mfaEnrollments(tenant: .scoped, localID: user.localID) }
        guard !enrollments.contains(where: { $0.phoneNumber == phone.e164 }) else { throw AuthError.secondFactorExists }
        guard enrollments.count < Self.maxSecondFactors else { throw AuthError.secondFactorLimitExceeded }
        let sessionInfo = try await codes.sendCode(
            to: phone.e164, purpose: .mfaEnrollment, locales: locales, proof: phoneInfo.proof, clientIP: clientIP, forSignIn: false,
            account: user.localID)
        return StartEnrollmentResponse(phoneSessionInfo: .init(sessionInfo: sessionInfo))
    }

    /// Runs in the request's tenant (a named one, else its ID token's), or the pending credential's when it names none.
    func finalizeEnrollment(_ wire: FinalizeEnrollmentRequest) async throws -> MFATokensResponse {
        try await gate.inTenant(ofPendingCredential: wire.idToken == nil ? wire.mfaPendingCredential : nil) {
            try await finalizeEnrollmentHere(wire)
        }
    }

    private func finalizeEnrollmentHere(_ wire: FinalizeEnrollmentRequest) async throws -> MFATokensResponse {
        let config = node.config.current
        let enrollmentID = node.random.alphanumericID()
        let now = node.clock.now()
        var enrollment: MFAEnrollmentRecord
        let enrollee: Enrollee
        var totpSessionKey: CounterKey?
        if let totp = wire.totpVerificationInfo, wire.phoneVerificationInfo == nil {
            guard config.totpSecondFactorEnabled else { throw AuthError.totpMFANotEnabled }
            enrollee = try await enrollingUser(idToken: wire.idToken, pendingCredential: wire.mfaPendingCredential)
            let user = enrollee.user
            guard let sessionText = totp.sessionInfo, !sessionText.isEmpty else { throw AuthError.missingSessionInfo }
            guard let code = totp.verificationCode, !code.isEmpty else { throw AuthError.missingCode }
            guard let session = TOTPEnrollmentSession(opening: sessionText, key: secret.mfaKey), session.localID == user.localID,
                now.wholeSecond - session.issuedAt <= Self.totpEnrollmentWindow
            else { throw AuthError.invalidSessionInfo }
            // Every try counts; past the limit the session is spent and enrolment starts over.
            let attempts = Limit(
                key: .totpEnrollmentTries(session: sessionText), max: Int64(node.settings.maxCodeAttempts), window: .seconds(3600))
            if try await node.store.write({ tx in try await [attempts].count(in: tx, now: now) }) { throw AuthError.sessionExpired }
            guard
                let step = TOTP.matchingStep(
                    code: code, secret: session.secret, at: now.secondsSince1970, adjacentIntervals: config.totpAdjacentIntervals,
                    parameters: TOTPParameters())
            else { throw AuthError.invalidCode }
            totpSessionKey = .totpEnrollmentSpent(session: sessionText)
            enrollment = MFAEnrollmentRecord(
                tenant: .scoped, enrollmentID: enrollmentID, localID: user.localID, factor: .totp, displayName: wire.displayName,
                sealedTOTPSecret: try sealTOTPSecret(session.secret), enrolledAt: now, lastTOTPStep: step)
        } else {
            guard config.smsSecondFactorEnabled else { throw AuthError.smsMFANotEnabled }
            enrollee = try await enrollingUser(idToken: wire.idToken, pendingCredential: wire.mfaPendingCredential)
            let user = enrollee.user
            guard let info = wire.phoneVerificationInfo else { throw AuthError.missingPhoneVerificationInfo }
            let phone = try await codes.provePhoneCode(
                sessionInfo: info.sessionInfo, code: info.code, purpose: .mfaEnrollment)
            enrollment = MFAEnrollmentRecord(
                tenant: .scoped, enrollmentID: enrollmentID, localID: user.localID, factor: .phone, displayName: wire.displayName, phoneNumber: phone,
                enrolledAt: now)
        }
        let codes = RecoveryCodes.generate(using: node.random)
        let hashes = codes.compactMap { RecoveryCodes.normalize($0).map { RecoveryCodes.hash($0, key: secret.recoveryKey) } }
        let added = enrollment
        let claim = SecondFactorClaim(factor: added.factor, identifier: added.enrollmentID)
        let provider = enrollee.provider
        let usedSessionKey = totpSessionKey
        let result = try await node.store.write { [self, enrollee] tx in
            try await addFactor(added, for: enrollee, claim: claim, recoveryCodes: hashes, spending: usedSessionKey, in: tx, now: now)
        }
        let (user, refresh, first) = try result.get()
        node.logger.notice("second factor enrolled", metadata: ["uid": "\(user.localID)", "factor": "\(added.factor)"])
        let tokens = try sessions.sessionTokens(
            user: user, refreshToken: refresh, provider: provider, now: now, secondFactor: claim, authTime: enrollee.authTime,
            developerClaims: enrollee.sessionClaims)
        return MFATokensResponse(tokens: tokens, recoveryCodes: first ? codes : nil)
    }

    /// Finalize's transaction: checks the account's factors again, adds the new one (the first with recovery codes),
    /// ends the other sessions and stores the enrolling session's refresh token.
    private func addFactor(
        _ added: MFAEnrollmentRecord, for enrollee: Enrollee, claim: SecondFactorClaim, recoveryCodes hashes: [String],
        spending usedSessionKey: CounterKey?, in tx: some Writes, now: Instant
    ) async throws -> Result<(UserRecord, String, Bool), AuthError> {
        let current: Result<UserRecord, AuthError>
        if let token = enrollee.token {
            current = try await sessions.tokenUser(token, in: tx)
        } else if let user = try await tx.lockedUser(tenant: .scoped, localID: enrollee.user.localID), !user.disabled {
            current = .success(user)
        } else {
            current = .failure(.invalidMFAPendingCredential)
        }
        switch current {
        case .failure(let error): return .failure(error)
        case .success(var user):
            let existing = try await tx.mfaEnrollments(tenant: .scoped, localID: user.localID)
            // Checked again under the transaction: the pending-credential path is for the first factor only.
            if enrollee.token == nil, !existing.isEmpty { return .failure(.missingIDToken) }
            if let phone = added.phoneNumber, existing.contains(where: { $0.phoneNumber == phone }) { return .failure(.secondFactorExists) }
            guard existing.count < Self.maxSecondFactors else { return .failure(.secondFactorLimitExceeded) }
            // A TOTP enrolment session adds one factor at most.
            if let key = usedSessionKey,
                try await tx.incrementCounter(key: key, windowStart: .epoch, expiresAt: now + Self.totpEnrollmentWindow) > 1
            {
                return .failure(.invalidSessionInfo)
            }
            do {
                try await tx.insertMFAEnrollment(added)
            } catch StoreError.conflict(.secondFactor) {
                return .failure(.secondFactorExists)
            }
            try await tx.audit(
                .mfaEnrolled, uid: user.localID, at: now, ["factor": .string(added.factor.rawValue), "enrollmentId": .string(added.enrollmentID)])
            let first = existing.isEmpty
            if first { try await tx.replaceRecoveryCodes(tenant: .scoped, localID: user.localID, hashes: hashes, now: now) }
            // A second-factor change ends the account's other sessions; the enrolling one gets new tokens.
            try await sessions.revokeSessions(of: &user, in: tx, now: now)
            user.lastRefreshAt = now
            try await tx.updateUser(user)
            let refresh = try await sessions.storeRefreshToken(
                tx, user: user, provider: enrollee.provider, now: now, secondFactor: claim, authTime: enrollee.authTime,
                developerClaims: enrollee.sessionClaims)
            return .success((user, refresh, first))
        }
    }
}
