import FlintCore
import FlintStore
import FlintTexts
import Hummingbird

/// Dev-mode helpers, compatible with the Firebase emulator: readiness, pending codes, the outbox, wiping users.
/// Registered only in dev mode; they need no credential, like the emulator's.
struct DevRoutes {
    let node: Node
    /// The session key makes the `sessionInfo` of listed codes.
    let secret: ServerSecret

    struct Readiness: Encodable {
        struct Inner: Encodable {
            var ready = true
            var docs = "https://firebase.google.com/docs/emulator-suite"
            var flint = "dev mode: codes are in /emulator/v1/projects/{project}/outbox"
        }
        var authEmulator = Inner()
    }

    struct VerificationCode: Encodable {
        var code: String
        var phoneNumber: String
        var sessionInfo: String
    }

    struct Message: Encodable {
        var channel: String
        var to: String
        var body: String
        var locale: String
        var createdAt: String
        var subject: String?
        var html: String?
        var link: String?
        var requestType: String?
        var status: String
        var statusDetail: String?
        var attempts: Int

        init(_ m: OutboxMessage) {
            (channel, to, body, locale, createdAt) = (m.channel.rawValue, m.recipient, m.body, m.locale, String(m.createdAt.millisecondsSince1970))
            (subject, html, requestType) = (m.email?.subject, m.email?.html, m.email?.requestType.rawValue)
            link = m.email?.link.isEmpty == false ? m.email?.link : nil
            (status, statusDetail, attempts) = (m.status.rawValue, m.statusDetail, m.attempts)
        }
    }

    struct OobCode: Encodable {
        var email: String
        /// For `VERIFY_AND_CHANGE_EMAIL`, the new address (the one the link went to), as the emulator lists it.
        var newEmail: String?
        var requestType: String
        var oobCode: String
        var oobLink: String
    }

    func ready(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try JSONReply.make(Readiness())
    }

    func verificationCodes(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try checkProject(context)
        let now = node.clock.now()
        let max = node.settings.maxCodeAttempts
        // Flint extension: `?phoneNumber=` narrows the list to one number (any format the API accepts).
        let only = try request.uri.queryParameters["phoneNumber"].map { text throws(AuthError) in try PhoneNumber(wire: String(text)).e164 }
        let messages = try await node.store.read { try await $0.pendingCodeMessages(now: now, maxAttempts: max, phoneNumber: only) }
        let codes = messages.compactMap { m -> VerificationCode? in
            guard let code = m.code, let id = m.sessionID.flatMap(Hex.decode) else { return nil }
            return VerificationCode(
                code: code, phoneNumber: m.recipient, sessionInfo: SessionHandle.stored(id: id).encode(key: secret.sessionKey))
        }
        return try JSONReply.make(["verificationCodes": codes])
    }

    func outbox(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try checkProject(context)
        let messages = try await node.store.read { try await $0.outbox(limit: 10_000) }
        return try JSONReply.make(["messages": messages.map(Message.init)])
    }

    /// The outbox behind the admin credential (any mode).
    func adminOutbox(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try context.requireAdmin()
        return try await outbox(request, context: context)
    }

    /// Every unused, unexpired emailed code, in the emulator's format.
    func oobCodes(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try checkProject(context)
        let now = node.clock.now()
        // As the emulator lists them: a VERIFY_AND_CHANGE_EMAIL code shows the account's current address in `email`
        // and the address the link went to in `newEmail`.
        let codes = try await node.store.read { r -> [OobCode] in
            var codes: [OobCode] = []
            for m in try await r.pendingOobMessages(now: now) {
                guard let code = m.code, let parts = m.email else { continue }
                var (email, newEmail): (String, String?) = (m.recipient, nil)
                if parts.requestType == .verifyAndChangeEmail {
                    newEmail = m.recipient
                    if let id = try await r.oobCode(hash: storedTokenHash(code))?.localID, let current = try await r.user(localID: id)?.email {
                        email = current
                    }
                }
                codes.append(OobCode(email: email, newEmail: newEmail, requestType: parts.requestType.rawValue, oobCode: code, oobLink: parts.link))
            }
            return codes
        }
        return try JSONReply.make(["oobCodes": codes])
    }

    func deleteAccounts(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try checkProject(context)
        try await node.store.write { tx in try await tx.deleteAllUsers() }
        return try JSONReply.make([String: String]())
    }

    func checkProject(_ context: FlintRequestContext) throws(AuthError) {
        guard context.parameters.get("project") == node.settings.projectID else { throw AuthError.projectNotFound }
    }
}
