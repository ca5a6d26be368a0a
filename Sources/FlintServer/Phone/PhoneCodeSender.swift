import FlintCore
import FlintStore
import Logging

/// Sending a code: the rules shared by phone sign-in (and, later, SMS multi-factor).
extension AuthServices {
    /// Parses a number the way every phone endpoint does: missing or malformed → `INVALID_PHONE_NUMBER`.
    func parsePhoneNumber(_ text: String?) throws(AuthError) -> PhoneNumber {
        guard let text, !text.isEmpty else { throw AuthError.invalidPhoneNumber }
        do {
            return try PhoneNumber(parsing: text)
        } catch {
            throw AuthError.invalidPhoneNumber.with(detail: error.detail)
        }
    }

    /// Sends (or re-uses) a code for `text` and returns the `sessionInfo` handle.
    ///
    /// Fictional numbers get a stateless handle and no message. A number whose code is still valid gets its
    /// live session back and no second SMS. Otherwise the new session and the rendered message (the outbox
    /// record) are committed in one transaction, and only then is the message handed to the SMS sender; if the
    /// hand-over fails the session is abandoned, so the next attempt sends afresh.
    ///
    /// With `forSignIn` (phone sign-in, not a second factor) the project must allow phone sign-in, and a number whose
    /// account has second factors is refused (`UNSUPPORTED_FIRST_FACTOR`), as Firebase does.
    ///
    /// A real number needs `proof` when the project enforces app verification (``checkAppProof(_:)``); fictional
    /// numbers never do, which is what lets apps with `isAppVerificationDisabledForTesting` use them.
    func sendCode(to text: String?, purpose: SMSPurpose, locales: [String], proof: AppProof, forSignIn: Bool = true) async throws -> String {
        let config = config.current
        if forSignIn { guard config.phoneSignInEnabled else { throw AuthError.operationNotAllowed } }
        let phone = try parsePhoneNumber(text)
        if forSignIn, mfaActive {
            let hasFactors = try await store.read { [self] reader in
                guard let owner = try await reader.user(phoneNumber: phone.e164) else { return false }
                return !(try await activeEnrollments(owner.localID, in: reader)).isEmpty
            }
            if hasFactors { throw AuthError.unsupportedFirstFactor }
        }
        let now = clock.now()
        if config.testPhoneNumbers[phone.e164] != nil {
            return SessionHandle.fictional(phoneNumber: phone.e164, issuedAt: now.secondsSince1970).encode(key: secret.sessionKey)
        }
        try await checkAppProof(proof)
        let id = random.bytes(16)
        let code = VerificationCode.generate(using: random)
        let candidate = CodeSession(
            id: Hex.encode(id), phoneNumber: phone.e164, purpose: purpose.rawValue,
            codeHash: Hex.encode(secret.codeHash(sessionID: id, code: code)), createdAt: now.millisecondsSince1970,
            expiresAt: now.millisecondsSince1970 + Int64(settings.smsCodeTTL * 1000)
        )
        let rendered = templates.render(purpose: purpose, locale: locales, app: appName, code: code)
        let message = SMSMessage(
            to: phone.e164, body: rendered.text, locale: rendered.locale, createdAt: candidate.createdAt, code: code, sessionID: candidate.id
        )
        let maxAttempts = settings.maxCodeAttempts
        let (session, reused) = try await store.write { tx in
            let started = try await tx.startCodeSession(candidate, maxAttempts: maxAttempts)
            if !started.reused { try await tx.appendOutbox(message.outboxRecord) }
            return started
        }
        guard let sessionID = Hex.decode(session.id) else { throw AuthError.internalError }
        let handle = SessionHandle.stored(id: sessionID).encode(key: secret.sessionKey)
        if reused { return handle }
        do {
            try await sms.send(message)
        } catch {
            let at = nowMS
            try? await store.write { tx in try await tx.abandonCodeSession(id: candidate.id, now: at) }
            guard let failure = error as? SMSDeliveryError else {
                logger.error("sms hand-over failed", metadata: ["errorType": "\(type(of: error))"])
                throw AuthError.internalError.with(detail: "The SMS could not be sent; try again.")
            }
            logger.error("sms not delivered", metadata: ["kind": "\(failure.kind.rawValue)", "detail": "\(failure.detail)"])
            switch failure.kind {
            case .rejectedNumber: throw AuthError.invalidPhoneNumber.with(detail: "This number cannot receive text messages.")
            case .notConfigured: throw AuthError.internalError.with(detail: "SMS delivery is not configured on this server.")
            case .refused, .unavailable: throw AuthError.internalError.with(detail: "The SMS could not be sent; try again.")
            }
        }
        return handle
    }
}
