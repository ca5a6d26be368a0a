import FlintCore
import FlintServer
import FlintStore

/// What the setup page shows: the operator, and a fresh TOTP secret as text and as an `otpauth://` URI, with the
/// secret sealed for the form to send back (the server keeps nothing until the operator proves the authenticator).
struct ConsoleSetupOffer: Sendable {
    let email: String
    let secretText: String
    let otpauthURI: String
    let sealedSecret: String
}

/// The one-time setup link: the operator chooses a password and enrolls a TOTP authenticator, proven by a code.
extension ConsoleFlow {
    /// Operators' passwords are longer than users' minimum.
    static let minPasswordLength = 12

    /// The operator a setup token belongs to, while the token is outstanding and unexpired.
    func operatorToSetUp(token: String) async throws -> ConsoleOperatorRecord? {
        let hash = Self.hash(token)
        let now = node.clock.now()
        guard let found = try await node.store.read({ try await $0.consoleOperator(setupTokenHash: hash) }), let expiry = found.setupExpiresAt,
            now < expiry
        else { return nil }
        return found
    }

    /// A TOTP secret for `record`'s setup page: a fresh one, or the one `sealed` holds when the form is shown again.
    func offer(for record: ConsoleOperatorRecord, sealed: String? = nil) throws -> ConsoleSetupOffer {
        let secret = try sealed.map { text throws(AuthError) in try mfa.openTOTPSecret(text) } ?? TOTP.generateSecret(using: node.random)
        let uri = TOTP.otpauthURL(secret: secret, accountName: record.email, issuer: "Flint console (\(node.appName))", parameters: Self.totp)
        return ConsoleSetupOffer(
            email: record.email, secretText: Base32.encode(secret), otpauthURI: uri, sealedSecret: try mfa.sealTOTPSecret(secret))
    }

    /// Completes the setup of the operator of `token`: stores the password's hash and the sealed secret once `code`
    /// proves the authenticator, and spends the token.
    /// - Throws: ``ConsoleRefusal``.
    func completeSetup(token: String, password: String, confirmation: String, sealedSecret: String, code: String, ip: String?) async throws {
        guard let record = try await operatorToSetUp(token: token) else {
            throw ConsoleRefusal(message: "This setup link is unknown, used or expired: ask for a new one.")
        }
        guard password.count >= Self.minPasswordLength, password.utf8.count <= 1024 else {
            throw ConsoleRefusal(message: "The password must have at least \(Self.minPasswordLength) characters.")
        }
        guard password == confirmation else { throw ConsoleRefusal(message: "The two passwords differ.") }
        guard let secret = try? mfa.openTOTPSecret(sealedSecret) else { throw ConsoleRefusal(message: "The setup form was altered: reload it.") }
        let now = node.clock.now()
        guard
            let step = TOTP.matchingStep(
                code: code.filter { !$0.isWhitespace }, secret: secret, at: now.secondsSince1970, adjacentIntervals: Self.totpAdjacentIntervals,
                parameters: Self.totp)
        else { throw ConsoleRefusal.code }
        let hash = try await accounts.passwords.hash(password)
        let event = AuditOrigin(ip: ip, actor: record.email).event(
            .consoleOperatorChanged, uid: nil, at: now, ["operator": .string(record.email), "step": "setUp"])
        let tokenHash = Self.hash(token)
        let done = try await node.store.write { tx -> Bool in
            guard var current = try await tx.consoleOperator(setupTokenHash: tokenHash) else { return false }
            (current.passwordHash, current.totpSecret, current.lastTOTPStep) = (hash, sealedSecret, step)
            (current.setupTokenHash, current.setupExpiresAt) = (nil, nil)
            try await tx.updateConsoleOperator(current)
            _ = try await tx.deleteConsoleSessions(email: current.email)
            try await tx.appendAuditEvent(event)
            return true
        }
        guard done else { throw ConsoleRefusal(message: "This setup link was used meanwhile.") }
    }
}
