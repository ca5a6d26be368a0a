import FlintCore
import FlintStore
import FlintTexts
import Hummingbird

/// Dev-mode helpers, compatible with the Firebase emulator: readiness, pending codes, the outbox, wiping users.
/// Registered only in dev mode; they need no credential, like the emulator's. The pending codes and the wipe are
/// per tenant: at `…/projects/{p}/…` the default tenant's, at `…/projects/{p}/tenants/{t}/…` the tenant's.
struct DevRoutes {
    let node: Node
    /// The session key makes the `sessionInfo` of listed codes.
    let secret: ServerSecret

    /// What the listing of oob codes reads: the outbox's emails, their codes, the accounts they were sent for.
    typealias Reads = OutboxReads & OobCodesReads & UsersReads

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

    /// An outbox record as the emulator lists it: its email's parts beside the rest, the time in milliseconds, no
    /// empty link.
    struct Message: Encodable {
        let record: OutboxMessage

        private enum CodingKeys: String, CodingKey {
            case channel, to, body, locale, createdAt, subject, html, link, requestType, status, statusDetail, attempts
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(record.channel.rawValue, forKey: .channel)
            try container.encode(record.recipient, forKey: .to)
            try container.encode(record.body, forKey: .body)
            try container.encode(record.locale, forKey: .locale)
            try container.encode(String(record.createdAt.millisecondsSince1970), forKey: .createdAt)
            try container.encodeIfPresent(record.email?.subject, forKey: .subject)
            try container.encodeIfPresent(record.email?.html, forKey: .html)
            try container.encodeIfPresent(record.email.flatMap { $0.link.isEmpty ? nil : $0.link }, forKey: .link)
            try container.encodeIfPresent(record.email?.requestType.rawValue, forKey: .requestType)
            try container.encode(record.status.rawValue, forKey: .status)
            try container.encodeIfPresent(record.statusDetail, forKey: .statusDetail)
            try container.encode(record.attempts, forKey: .attempts)
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
        let messages = try await node.store.read {
            try await $0.pendingCodeMessages(tenant: Self.tenant(of: context), now: now, maxAttempts: max, phoneNumber: only)
        }
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
        return try JSONReply.make(["messages": messages.map(Message.init(record:))])
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
        let tenant = Self.tenant(of: context)
        let codes = try await node.store.read { r in
            try await Self.pendingOobCodes(in: r, tenant: tenant, now: now)
        }
        return try JSONReply.make(["oobCodes": codes])
    }

    /// The oob codes of `tenant` of the emails waiting in the outbox, as the emulator lists them.
    private static func pendingOobCodes(in r: some Reads, tenant: TenantID, now: Instant) async throws -> [OobCode] {
        var codes: [OobCode] = []
        for m in try await r.pendingOobMessages(now: now) {
            guard let code = m.code, let parts = m.email, let record = try await r.oobCode(hash: storedTokenHash(code)), record.tenant == tenant
            else { continue }
            var (email, newEmail): (String, String?) = (m.recipient, nil)
            if parts.requestType == .verifyAndChangeEmail {
                newEmail = m.recipient
                if let id = record.localID, let current = try await r.user(tenant: tenant, localID: id)?.email {
                    email = current
                }
            }
            codes.append(OobCode(email: email, newEmail: newEmail, requestType: parts.requestType.rawValue, oobCode: code, oobLink: parts.link))
        }
        return codes
    }

    func deleteAccounts(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try checkProject(context)
        let tenant = Self.tenant(of: context)
        try await node.store.write { tx in try await tx.deleteAllUsers(tenant: tenant) }
        return try JSONReply.make([String: String]())
    }

    /// The tenant a helper's path names (`…/tenants/{tenant}/…`), else the default one.
    static func tenant(of context: FlintRequestContext) -> TenantID {
        context.parameters.get("tenant").map { TenantID(rawValue: $0) } ?? .default
    }

    func checkProject(_ context: FlintRequestContext) throws(AuthError) {
        guard context.parameters.get("project") == node.settings.projectID else { throw AuthError.projectNotFound }
    }
}
