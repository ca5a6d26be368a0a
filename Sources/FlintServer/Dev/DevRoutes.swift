import FlintCore
import FlintStore
import Hummingbird

/// Dev-mode helpers, compatible with the Firebase emulator: readiness, pending codes, the outbox, wiping users.
/// Registered only in dev mode; they need no credential, like the emulator's.
struct DevRoutes {
    let services: AuthServices

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
    }

    func ready(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try JSONReply.make(Readiness())
    }

    func verificationCodes(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try checkProject(context)
        let now = services.nowMS
        let max = services.settings.maxCodeAttempts
        // Flint extension: `?phoneNumber=` narrows the list to one number (any format the API accepts).
        let only = try request.uri.queryParameters["phoneNumber"].map { text throws(AuthError) in try services.parsePhoneNumber(String(text)).e164 }
        let messages = try await services.store.read { try await $0.pendingCodeMessages(now: now, maxAttempts: max, phoneNumber: only) }
        let codes = messages.compactMap { m -> VerificationCode? in
            guard let code = m.code, let id = m.sessionID.flatMap(Hex.decode) else { return nil }
            return VerificationCode(
                code: code, phoneNumber: m.recipient, sessionInfo: SessionHandle.stored(id: id).encode(key: services.secret.sessionKey))
        }
        return try JSONReply.make(["verificationCodes": codes])
    }

    func outbox(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try checkProject(context)
        let messages = try await services.store.read { try await $0.outbox(limit: 10_000) }
        let out = messages.map { Message(channel: $0.channel, to: $0.recipient, body: $0.body, locale: $0.locale, createdAt: String($0.createdAt)) }
        return try JSONReply.make(["messages": out])
    }

    func deleteAccounts(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try checkProject(context)
        try await services.store.write { tx in try await tx.deleteAllUsers() }
        return try JSONReply.make([String: String]())
    }

    private func checkProject(_ context: FlintRequestContext) throws(AuthError) {
        guard context.parameters.get("project") == services.settings.projectID else { throw AuthError.projectNotFound }
    }
}
