import FlintCore
import FlintStore
import FlintTexts

extension PhoneCodes {
    /// Spends an SMS code sent for `purpose` and returns the number it proves: the second-factor steps use it the
    /// way `signInWithPhoneNumber` does, but a code sent for one purpose never serves another. Wrong codes count
    /// against the number's caps (``spend(_:purpose:in:now:)``).
    func provePhoneCode(sessionInfo: String?, code: String?, purpose: SMSPurpose) async throws -> String {
        let proof = try codeProof(sessionInfo: sessionInfo, code: code)
        let now = node.clock.now()
        let outcome = try await node.store.write { [self] tx in try await spend(proof, purpose: purpose, in: tx, now: now) }
        return try outcome.get().phone
    }

    /// What a verification ID and code prove before the store is asked: a fictional number's handle with whether its
    /// fixed code matched, or a stored session to spend with the code's hash.
    func codeProof(sessionInfo: String?, code: String?) throws(AuthError) -> NumberProof {
        guard let sessionInfo, !sessionInfo.isEmpty else { throw AuthError.missingSessionInfo }
        guard let code, !code.isEmpty else { throw AuthError.missingCode }
        switch SessionHandle(decoding: sessionInfo, key: secret.sessionKey) {
        case .stored(let id)?:
            return .storedSession(id: Hex.encode(id), codeHash: Hex.encode(secret.codeHash(sessionID: id, code: code)))
        case .fictional(let phone, let issuedAt)?:
            guard let expected = node.config.current.testPhoneNumbers[phone] else { throw AuthError.invalidSessionInfo }
            let ttl = node.settings.smsCodeTTL
            guard node.clock.now().wholeSecond - issuedAt < ttl else { throw AuthError.sessionExpired }
            return .fictional(
                FictionalAttempt(
                    phoneNumber: phone, counterKey: .fictionalCodeTries(sessionInfo: sessionInfo), expiresAt: issuedAt + ttl,
                    codeMatches: constantTimeEquals(Array(code.utf8), Array(expected.utf8))))
        case .temporaryProof?, nil:
            throw AuthError.invalidSessionInfo
        }
    }

    /// The number a code spend proved, if the code was right and sent for `purpose`; Firebase's error otherwise.
    static func provenNumber(_ outcome: CodeSpendOutcome, purpose: SMSPurpose) -> Result<String, AuthError> {
        switch outcome {
        case .spent(let session):
            // A code acts only in the tenant it was sent in.
            guard session.purpose == CodePurpose(purpose), session.tenant == TenantID.scoped else { return .failure(.invalidSessionInfo) }
            return .success(session.phoneNumber)
        case .notFound: return .failure(.invalidSessionInfo)
        case .expired: return .failure(.sessionExpired)
        case .locked: return .failure(.sessionExpired.with(detail: "Too many incorrect codes. Request a new code."))
        case .wrongCode: return .failure(.invalidCode)
        }
    }
}
