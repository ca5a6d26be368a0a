import FlintCore
import FlintStore

extension AuthServices {
    /// Spends an SMS code sent for `purpose` and returns the number it proves: the second-factor steps use it the
    /// way `signInWithPhoneNumber` does, but a code sent for one purpose never serves another.
    func provePhoneCode(sessionInfo: String?, code: String?, purpose: SMSPurpose) async throws -> String {
        switch try codeProof(sessionInfo: sessionInfo, code: code) {
        case .verified(let phone):
            return phone
        case .storedSession(let id, let hash):
            let now = nowMS
            let maxAttempts = settings.maxCodeAttempts
            let outcome = try await store.write { tx in
                try await tx.spendCode(sessionID: id, codeHash: hash, now: now, maxAttempts: maxAttempts)
            }
            return try Self.provenNumber(outcome, purpose: purpose).get()
        }
    }

    /// What a verification ID and code prove before the store is asked: a fictional number whose fixed code
    /// matched, or a stored session to spend with the code's hash.
    func codeProof(sessionInfo: String?, code: String?) throws(AuthError) -> NumberProof {
        guard let sessionInfo, !sessionInfo.isEmpty else { throw AuthError.missingSessionInfo }
        guard let code, !code.isEmpty else { throw AuthError.missingCode }
        switch SessionHandle(decoding: sessionInfo, key: secret.sessionKey) {
        case .stored(let id)?:
            return .storedSession(id: Hex.encode(id), codeHash: Hex.encode(secret.codeHash(sessionID: id, code: code)))
        case .fictional(let phone, let issuedAt)?:
            guard let expected = config.current.testPhoneNumbers[phone] else { throw AuthError.invalidSessionInfo }
            guard clock.now().secondsSince1970 - issuedAt < Int64(settings.smsCodeTTL) else { throw AuthError.sessionExpired }
            guard constantTimeEquals(Array(code.utf8), Array(expected.utf8)) else { throw AuthError.invalidCode }
            return .verified(phone)
        case .temporaryProof?, nil:
            throw AuthError.invalidSessionInfo
        }
    }

    /// The number a code spend proved, if the code was right and sent for `purpose`; Firebase's error otherwise.
    static func provenNumber(_ outcome: CodeSpendOutcome, purpose: SMSPurpose) -> Result<String, AuthError> {
        switch outcome {
        case .spent(let session):
            guard session.purpose == purpose.rawValue else { return .failure(.invalidSessionInfo) }
            return .success(session.phoneNumber)
        case .notFound: return .failure(.invalidSessionInfo)
        case .expired: return .failure(.sessionExpired)
        case .locked: return .failure(.sessionExpired.with(detail: "Too many incorrect codes. Request a new code."))
        case .wrongCode: return .failure(.invalidCode)
        }
    }
}
