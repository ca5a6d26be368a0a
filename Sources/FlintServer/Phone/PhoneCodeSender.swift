import FlintCore
import FlintStore
import FlintTexts
import Logging

/// Sending a code: the rules shared by phone sign-in and SMS multi-factor.
extension PhoneCodes {
    /// Sends (or re-uses) a code for `text` and returns the `sessionInfo` handle.
    ///
    /// The text is the config's for `purpose` in the best of `locales` (`flint.smsTemplates` over the built-in texts).
    /// Fictional numbers get a stateless handle and no message. A number whose code is still valid gets its
    /// live session back and no second SMS. Otherwise the new session and the rendered message (the outbox
    /// record) are committed in one transaction, and only then is the message handed to the SMS sender; if the
    /// hand-over fails the session is abandoned, so the next attempt sends afresh. Outside dev mode the outbox record
    /// keeps neither code nor text once handed over.
    ///
    /// A real number is sent at most `flint.smsLimits.perNumberPerHour` and `perNumberPerDay` new codes, and a text
    /// handed to a provider also counts against the project's other `flint.smsLimits` (per
    /// `clientIP`, per destination country: `TOO_MANY_ATTEMPTS_TRY_LATER`; the daily budget: `QUOTA_EXCEEDED`; see
    /// ``textLimits(to:clientIP:config:delivered:)``); a send refused by one limit takes nothing from the others, and no text
    /// goes out. Fictional numbers are exempt, and the dev outbox (no delivery, no cost) counts on the per-number caps only.
    ///
    /// With `forSignIn` (phone sign-in, not a second factor) the project must allow phone sign-in, and a number whose
    /// account has second factors is refused (`UNSUPPORTED_FIRST_FACTOR`), as Firebase does.
    ///
    /// A real number whose region the project's `smsRegionConfig` does not allow is refused (`OPERATION_NOT_ALLOWED`,
    /// Firebase's words), for sign-in and second-factor codes alike.
    ///
    /// A real number's text is first put to the project's `beforeSendSms` function, if any (with `account`, the
    /// second factor's owner, or the number's account).
    ///
    /// A real number needs `proof` when the project enforces app verification (``checkAppProof(_:)``); fictional
    /// numbers never do, which is what lets apps with `isAppVerificationDisabledForTesting` use them.
    func sendCode(
        to text: String?, purpose: SMSPurpose, locales: [String], proof: AppProof, clientIP: String?, forSignIn: Bool = true,
        account: String? = nil
    ) async throws -> String {
        let config = node.config.current
        if forSignIn { guard config.phoneSignInEnabled else { throw AuthError.operationNotAllowed } }
        let phone = try PhoneNumber(wire: text)
        if forSignIn, gate.mfaActive {
            let hasFactors = try await node.store.read { [self] reader in
                try await hasSecondFactors(phone.e164, in: reader)
            }
            if hasFactors { throw AuthError.unsupportedFirstFactor }
        }
        let now = node.clock.now()
        if config.testPhoneNumbers[phone.e164] != nil {
            return SessionHandle.fictional(phoneNumber: phone.e164, issuedAt: now.wholeSecond).encode(key: secret.sessionKey)
        }
        try await verifier.checkAppProof(proof)
        // The region policy applies to real numbers only (fictional ones are never texted), after the app's proof.
        guard config.smsRegionPolicy.allows(region: phone.regionCode) else {
            node.metrics.codeRefused(region: phone.regionCode, reason: .region)
            throw AuthError.smsRegionNotAllowed
        }
        // A function may refuse the text; then nothing of the send is kept.
        try await node.blocking.beforeSendSms(purpose, to: phone.e164, localID: account, store: node.store)
        let id = node.random.bytes(16)
        let code = VerificationCode.generate(using: node.random)
        let candidate = CodeSession(
            tenant: .scoped, id: Hex.encode(id), phoneNumber: phone.e164, purpose: CodePurpose(purpose),
            codeHash: Hex.encode(secret.codeHash(sessionID: id, code: code)), createdAt: now,
            expiresAt: now + node.settings.smsCodeTTL
        )
        let rendered = node.config.smsTemplates.render(purpose: purpose, locale: locales, app: node.appName, code: code)
        let message = SMSMessage(
            to: phone.e164, body: rendered.text, locale: rendered.locale, createdAt: candidate.createdAt, code: code, sessionID: candidate.id
        )
        // The dev outbox's record is the delivery. Any other record is `sending` until the hand-over is reported
        // (a session whose text stays `sending` is not re-used by the next send), then `sent` or `failed`.
        let devOutbox = sms is DevOutboxSender
        var record = message.outboxRecord
        if !devOutbox { record.status = .sending }
        let sendLimits = textLimits(to: phone, clientIP: clientIP, config: config.smsLimits, delivered: !devOutbox)
        let (session, fresh, sentToday) = try await refusingPastLimits(at: candidate.createdAt, region: phone.regionCode) {
            try await node.store.write { [self, record] tx in
                try await startSession(candidate, text: record, limits: sendLimits, in: tx)
            }
        }
        if let sentToday, let alert = await budgetAlert(sent: sentToday, limits: sendLimits, now: candidate.createdAt) {
            logBudgetAlert(alert)
        }
        guard let sessionID = Hex.decode(session.id) else { throw AuthError.internalError }
        let handle = SessionHandle.stored(id: sessionID).encode(key: secret.sessionKey)
        guard fresh else { return handle }
        do {
            try await sms.send(message)
        } catch {
            node.metrics.codeRefused(region: phone.regionCode, reason: .delivery)
            node.metrics.delivery(channel: "sms", result: "failed")
            await handOverFailed(sessionID: candidate.id, limits: sendLimits.limits, countedAt: candidate.createdAt)
            guard let failure = error as? SMSDeliveryError else {
                node.logger.error("sms hand-over failed", metadata: ["errorType": "\(type(of: error))"])
                throw AuthError.internalError.with(detail: "The SMS could not be sent; try again.")
            }
            node.logger.error("sms not delivered", metadata: ["kind": "\(failure.kind.rawValue)", "detail": "\(failure.detail)"])
            switch failure.kind {
            case .rejectedNumber: throw AuthError.invalidPhoneNumber.with(detail: "This number cannot receive text messages.")
            case .notConfigured: throw AuthError.internalError.with(detail: "SMS delivery is not configured on this server.")
            case .refused, .unavailable: throw AuthError.internalError.with(detail: "The SMS could not be sent; try again.")
            }
        }
        node.metrics.codeSent(region: phone.regionCode, purpose: purpose.rawValue)
        if !devOutbox { node.metrics.delivery(channel: "sms", result: "sent") }
        if !devOutbox || !node.settings.devMode {
            // Outside dev mode the record keeps no code and no text once handed over: metadata only.
            let redact = !node.settings.devMode
            do {
                try await node.store.write { tx in
                    try await tx.finishCodeText(sessionID: candidate.id, status: .sent, detail: nil, redact: redact)
                }
            } catch {
                node.logger.warning("outbox update failed", metadata: ["session": "\(candidate.id)", "errorType": "\(type(of: error))"])
            }
        }
        return handle
    }

    /// A send's transaction: starts the number's code session, or re-uses its live one (then nothing else is written);
    /// a new session's text goes to the outbox, and the send counts on `limits`.
    /// - Returns: the session, whether it is new, and the day's texts across the project (for a new session).
    private func startSession(
        _ candidate: CodeSession, text record: OutboxMessage, limits sendLimits: [SMSSendLimit], in tx: some Writes
    ) async throws -> (CodeSession, Bool, Int64?) {
        let started = try await tx.startCodeSession(candidate, maxAttempts: node.settings.maxCodeAttempts)
        if started.reused { return (started.session, false, nil) }
        // The session and its text read nothing back; on PostgreSQL both ride on the counters' statement, which
        // closes the transaction: the send is then its live-session read and that one statement.
        try await tx.appendCodeText(record)
        // Past a limit, nothing of this send is kept (not the new session, its text, or any hit).
        let sentToday = try await sendLimits.reserve(in: tx, now: candidate.createdAt)
        return (started.session, true, sentToday)
    }

    /// Whether the account holding `phone` has second factors (it may then not sign in by SMS code alone).
    private func hasSecondFactors(_ phone: String, in reader: some Reads) async throws -> Bool {
        guard let owner = try await reader.user(tenant: .scoped, phoneNumber: phone) else { return false }
        return !(try await gate.activeEnrollments(owner.localID, in: reader)).isEmpty
    }

    /// After a failed hand-over: abandons the session (so the next send makes a new code), gives back the send-cap
    /// hits (no text went out) and marks the outbox record `failed` (outside dev mode without its code and text). Should
    /// this write fail too, the record stays `sending`, and the next send replaces the session instead of re-using it.
    private func handOverFailed(sessionID: String, limits: [Limit], countedAt: Instant) async {
        let at = node.clock.now()
        let redact = !node.settings.devMode
        do {
            try await node.store.write { [self] tx in
                try await abandon(sessionID, limits: limits, countedAt: countedAt, redact: redact, in: tx, now: at)
            }
        } catch {
            node.logger.warning("abandoning a code session failed", metadata: ["errorType": "\(type(of: error))"])
        }
    }

    /// The failed hand-over's transaction.
    private func abandon(
        _ sessionID: String, limits: [Limit], countedAt: Instant, redact: Bool, in tx: some Writes, now: Instant
    ) async throws {
        try await tx.abandonCodeSession(id: sessionID, now: now)
        try await limits.release(in: tx, reservedAt: countedAt)
        try await tx.finishCodeText(sessionID: sessionID, status: .failed, detail: nil, redact: redact)
    }
}
