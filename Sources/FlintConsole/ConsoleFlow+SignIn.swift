import FlintCore
import FlintServer
import FlintStore

/// Why a console sign-in step was refused, in words the sign-in page shows (never which of email or password).
struct ConsoleRefusal: Error, Sendable {
    let message: String

    static let credentials = ConsoleRefusal(message: "The email or password is wrong.")
    static let code = ConsoleRefusal(message: "The code is wrong or was already used.")
    static let locked = ConsoleRefusal(message: "Too many failed attempts: try again in 15 minutes.")
    static let expired = ConsoleRefusal(message: "The sign-in took too long: start again.")
}

/// Sign-in: the password step opens a short session that only the TOTP step may use; a valid code replaces it with a
/// signed-in session under a new token. Failures of either step count against the operator (``maxFailures`` in
/// ``failureWindow``) and every outcome is audited with the operator's email as the actor.
extension ConsoleFlow {
    /// The password step: the token of a session awaiting the TOTP code.
    /// - Throws: ``ConsoleRefusal``.
    func checkPassword(email text: String, password: String, ip: String?) async throws -> String {
        let email = EmailAddress.normalize(text) ?? text.lowercased()
        let origin = AuditOrigin(ip: ip, actor: email)
        let now = node.clock.now()
        if try await isLocked(email, now: now) {
            await node.recordAudit(origin.event(.consoleSignInFailed, uid: nil, at: now, ["step": "locked"]))
            throw ConsoleRefusal.locked
        }
        let found = try await node.store.read { try await $0.consoleOperator(email: email) }
        let stored = found?.isSetUp == true ? found?.passwordHash : nil
        guard try await accounts.passwords.verify(password, against: stored) else {
            try await fail(email, step: "password", origin: origin, now: now)
            throw ConsoleRefusal.credentials
        }
        let token = newToken()
        let session = ConsoleSessionRecord(tokenHash: Self.hash(token), email: email, stage: .awaitingTOTP, createdAt: now, lastSeenAt: now)
        try await node.store.write { tx in try await tx.insertConsoleSession(session) }
        return token
    }

    /// The TOTP step, for the session the password step opened: the token of the signed-in session.
    /// - Throws: ``ConsoleRefusal``.
    func checkCode(pendingToken: String, code: String, ip: String?) async throws -> String {
        let now = node.clock.now()
        let pendingHash = Self.hash(pendingToken)
        guard let pending = try await node.store.read({ try await $0.consoleSession(tokenHash: pendingHash) }), pending.stage == .awaitingTOTP,
            now - pending.createdAt < Self.totpStepLifetime
        else { throw ConsoleRefusal.expired }
        let origin = AuditOrigin(ip: ip, actor: pending.email)
        if try await isLocked(pending.email, now: now) {
            await node.recordAudit(origin.event(.consoleSignInFailed, uid: nil, at: now, ["step": "locked"]))
            throw ConsoleRefusal.locked
        }
        guard let found = try await node.store.read({ try await $0.consoleOperator(email: pending.email) }), let sealed = found.totpSecret else {
            throw ConsoleRefusal.expired
        }
        let secret = try mfa.openTOTPSecret(sealed)
        guard
            let step = TOTP.matchingStep(
                code: code.filter { !$0.isWhitespace }, secret: secret, at: now.secondsSince1970, adjacentIntervals: Self.totpAdjacentIntervals,
                parameters: Self.totp),
            step > (found.lastTOTPStep ?? Int64.min)
        else {
            try await fail(pending.email, step: "totp", origin: origin, now: now)
            throw ConsoleRefusal.code
        }
        let token = newToken()
        let session = ConsoleSessionRecord(tokenHash: Self.hash(token), email: pending.email, stage: .active, createdAt: now, lastSeenAt: now)
        let event = origin.event(.consoleSignIn, uid: nil, at: now, ["role": .string(found.role.rawValue)])
        let accepted = try await node.store.write { tx -> Bool in
            // Read again under the write: a code accepted by a concurrent sign-in is not accepted twice.
            guard var current = try await tx.consoleOperator(email: pending.email), step > (current.lastTOTPStep ?? Int64.min) else { return false }
            current.lastTOTPStep = step
            try await tx.updateConsoleOperator(current)
            try await tx.deleteConsoleSession(tokenHash: pendingHash)
            try await tx.insertConsoleSession(session)
            try await tx.appendAuditEvent(event)
            return true
        }
        guard accepted else { throw ConsoleRefusal.code }
        return token
    }

    /// Ends the session of `token`.
    func signOut(token: String) async throws {
        try await node.store.write { tx in try await tx.deleteConsoleSession(tokenHash: Self.hash(token)) }
    }

    /// Whether the operator's failures in the current window reached ``maxFailures``.
    private func isLocked(_ email: String, now: Instant) async throws -> Bool {
        let start = windowStart(now)
        return try await node.store.read { try await $0.counterValue(key: Self.failureKey(email), windowStart: start) } >= Self.maxFailures
    }

    /// Counts and audits a failed step.
    private func fail(_ email: String, step: String, origin: AuditOrigin, now: Instant) async throws {
        let start = windowStart(now)
        let event = origin.event(.consoleSignInFailed, uid: nil, at: now, ["step": .string(step)])
        try await node.store.write { tx in
            _ = try await tx.incrementCounter(key: Self.failureKey(email), windowStart: start, expiresAt: start + Self.failureWindow)
            try await tx.appendAuditEvent(event)
        }
    }

    /// The start of the failure window containing `now`.
    private func windowStart(_ now: Instant) -> Instant {
        let window = Self.failureWindow.inMilliseconds
        return Instant(millisecondsSince1970: now.millisecondsSince1970 - now.millisecondsSince1970 % window)
    }
}
