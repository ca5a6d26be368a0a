import FlintCore
import FlintStore

extension AuthServices {
    /// Spends an SMS code sent for `purpose` and returns the number it proves: the second-factor steps use it the
    /// way `signInWithPhoneNumber` does, but a code sent for one purpose never serves another.
    func provePhoneCode(sessionInfo: String?, code: String?, purpose: SMSPurpose) async throws -> String {
        guard let sessionInfo, !sessionInfo.isEmpty else { throw AuthError.missingSessionInfo }
        guard let code, !code.isEmpty else { throw AuthError.missingCode }
        switch SessionHandle(decoding: sessionInfo, key: secret.sessionKey) {
        case .stored(let id)?:
            let sessionID = Hex.encode(id)
            let hash = Hex.encode(secret.codeHash(sessionID: id, code: code))
            let now = nowMS
            let maxAttempts = settings.maxCodeAttempts
            let outcome = try await store.write { tx in
                try await tx.spendCode(sessionID: sessionID, codeHash: hash, now: now, maxAttempts: maxAttempts)
            }
            switch outcome {
            case .spent(let session):
                guard session.purpose == purpose.rawValue else { throw AuthError.invalidSessionInfo }
                return session.phoneNumber
            case .notFound: throw AuthError.invalidSessionInfo
            case .expired: throw AuthError.sessionExpired
            case .locked: throw AuthError.sessionExpired.with(detail: "Too many incorrect codes. Request a new code.")
            case .wrongCode: throw AuthError.invalidCode
            }
        case .fictional(let phone, let issuedAt)?:
            guard let expected = config.current.testPhoneNumbers[phone] else { throw AuthError.invalidSessionInfo }
            guard clock.now().secondsSince1970 - issuedAt < Int64(settings.smsCodeTTL) else { throw AuthError.sessionExpired }
            guard constantTimeEquals(Array(code.utf8), Array(expected.utf8)) else { throw AuthError.invalidCode }
            return phone
        case .temporaryProof?, nil:
            throw AuthError.invalidSessionInfo
        }
    }
}
