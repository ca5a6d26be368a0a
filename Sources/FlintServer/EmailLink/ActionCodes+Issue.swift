import FlintCore
import FlintStore
package import FlintTexts
import Logging

/// Out-of-band codes: made here, stored hashed with their outbox record in one transaction, and emailed as a link
/// to Flint's action page.
extension ActionCodes {
    /// What a new code is for and where its link points.
    struct OobRequest: Sendable {
        var action: EmailAction
        var email: String
        var localID: String?
        var continueURL: String?
        /// Host of the link (a configured link domain), or `nil` for the public URL.
        var linkHost: String?
        var apiKey: String
        var locales: [String]
        /// Whether to email it (false for an admin's `returnOobLink`).
        var send: Bool
    }

    /// The action page's `mode` for each request type.
    package static func mode(of action: EmailAction) -> String {
        switch action {
        case .signIn: "signIn"
        case .verifyEmail: "verifyEmail"
        case .passwordReset: "resetPassword"
        case .verifyAndChangeEmail: "verifyAndChangeEmail"
        case .recoverEmail: "recoverEmail"
        }
    }

    /// The emailed link: `{base}/__/auth/action?mode=…&oobCode=…&apiKey=…&continueUrl=…&lang=…`.
    func oobLink(code: String, request: OobRequest, lang: String) -> String {
        let base = request.linkHost.map { "https://\($0)" } ?? node.settings.publicBaseURL
        var query: [(String, String)] = [("mode", Self.mode(of: request.action)), ("oobCode", code), ("apiKey", request.apiKey)]
        if let continueURL = request.continueURL { query.append(("continueUrl", continueURL)) }
        // A tenant's link names it, as Firebase's do, so the app signs in with the right tenant.
        if !TenantID.scoped.isDefault { query.append(("tenantId", TenantID.scoped.rawValue)) }
        query.append(("lang", lang))
        return base + "/__/auth/action?" + URLQuery.encode(query)
    }

    /// Makes, stores and (unless `request.send` is false) emails a code. An email to send is first put to the
    /// project's `beforeSendEmail` function, if any: a refusal keeps nothing.
    /// - Returns: the code and its link.
    func issueOobCode(_ request: OobRequest, limits: [Limit]) async throws -> (code: String, link: String) {
        if request.send { try await node.blocking.beforeSendEmail(request.action, to: request.email, store: node.store) }
        let code = Base64URL.encode(node.random.bytes(24))
        let now = node.clock.now()
        let record = OobCodeRecord(
            tenant: .scoped, codeHash: storedTokenHash(code), requestType: OobCodeKind(request.action), email: request.email,
            localID: request.localID,
            createdAt: now, expiresAt: now + node.settings.oobCodeTTL, continueURL: request.continueURL
        )
        let templates = node.config.emailTemplates
        let link = oobLink(code: code, request: request, lang: templates.locale(for: request.action, requested: request.locales))
        var message: OutboxMessage?
        if request.send {
            // Rendered only when it is sent: an operator's returnOobLink needs just the link.
            let content = templates.render(
                action: request.action, locale: request.locales, app: node.appName, link: link, email: request.email)
            var outbox = OutboxMessage(
                channel: .email, recipient: request.email, body: content.text, locale: content.locale, createdAt: now, code: code,
                sessionID: record.codeHash
            )
            outbox.email = .init(subject: content.subject, html: content.html, link: link, requestType: OobCodeKind(request.action))
            outbox.status = email.isDevOutbox ? .dev : .queued
            message = outbox
        }
        let send = request.send
        // Over a limit is returned, not thrown, so the counted hit stays counted; `nil` when nothing is sent.
        let sequence = try await node.store.write { [message] tx in
            try await Self.store(record, email: message, send: send, limits: limits, in: tx, now: now)
        }.get()
        if let sequence, !email.isDevOutbox {
            Task { await self.deliverEmail(sequence: sequence) }
        }
        if send, email.isDevOutbox {
            node.metrics.emailKeptInDevOutbox(kind: OobCodeKind(request.action).rawValue)
            node.logger.info("email kept in the dev outbox", metadata: ["requestType": "\(request.action.rawValue)"])
        }
        return (code, link)
    }

    /// Stores a new code with its email, if any; a send first counts on `limits`, and over one is a failure.
    /// - Returns: the email's outbox sequence, `nil` when nothing is sent.
    private static func store(
        _ record: OobCodeRecord, email message: OutboxMessage?, send: Bool, limits: [Limit], in tx: some Writes, now: Instant
    ) async throws -> Result<Int64?, AuthError> {
        if send, try await limits.count(in: tx, now: now) { return .failure(.tooManyAttempts) }
        try await tx.insertOobCode(record)
        guard let message else { return .success(nil) }
        return .success(try await tx.appendOutbox(message))
    }

    /// Looks at a code without using it: `INVALID_OOB_CODE` (unknown, used, other type, another tenant's than the
    /// request's), `EXPIRED_OOB_CODE`.
    func peekOobCode(_ code: String?, expecting actions: [EmailAction]) async throws -> OobCodeRecord {
        guard let code, !code.isEmpty else { throw AuthError.missingOobCode }
        let hash = storedTokenHash(code)
        guard let record = try await node.store.read({ try await $0.oobCode(hash: hash) }), record.usedAt == nil,
            record.tenant == .scoped, actions.contains(where: { OobCodeKind($0) == record.requestType })
        else { throw AuthError.invalidOobCode }
        guard node.clock.now() < record.expiresAt else { throw AuthError.expiredOobCode }
        return record
    }

    /// Uses a code inside `tx`, as a failure outcome when it cannot be used. A code acts only in its own tenant: one
    /// of another tenant than the request's is thrown back as `INVALID_OOB_CODE`, which rolls its use back.
    static func use(
        _ code: String, as action: EmailAction, in tx: any OobCodesWrites, now: Instant
    ) async throws -> Result<OobCodeRecord, AuthError> {
        switch try await tx.useOobCode(hash: storedTokenHash(code), requestType: OobCodeKind(action), now: now) {
        case .used(let record):
            guard record.tenant == .scoped else { throw AuthError.invalidOobCode }
            return .success(record)
        case .invalid: return .failure(.invalidOobCode)
        case .expired: return .failure(.expiredOobCode)
        }
    }

    /// Uses a code inside `tx` and locks the account it was sent for, as a failure outcome when it cannot be used:
    /// `INVALID_OOB_CODE` also when that account is gone or, with `sameEmail`, no longer has the address the code was
    /// sent to; `USER_DISABLED` when the account is disabled, unless `evenDisabled`.
    static func useForAccount(
        _ code: String, as action: EmailAction, sameEmail: Bool, evenDisabled: Bool = false, in tx: some OobCodesWrites & UsersWrites, now: Instant
    ) async throws -> Result<(record: OobCodeRecord, user: UserRecord), AuthError> {
        let record: OobCodeRecord
        switch try await use(code, as: action, in: tx, now: now) {
        case .failure(let error): return .failure(error)
        case .success(let used): record = used
        }
        guard let id = record.localID, let user = try await tx.lockedUser(tenant: .scoped, localID: id), !sameEmail || user.email == record.email
        else {
            return .failure(.invalidOobCode)
        }
        guard evenDisabled || !user.disabled else { return .failure(.userDisabled) }
        return .success((record, user))
    }
}
