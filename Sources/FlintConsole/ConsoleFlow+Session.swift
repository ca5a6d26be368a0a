import FlintCore
import FlintServer
import FlintStore

/// A signed-in operator, as a console request found it.
struct ConsoleCaller: Sendable {
    let operatorRecord: ConsoleOperatorRecord
    /// The session's CSRF token, put in every form and checked on every POST.
    let csrf: String

    /// The operator's email, the actor of the audit events of its requests.
    var email: String { operatorRecord.email }
    /// Whether the operator may act (not only read).
    var canWrite: Bool { operatorRecord.role == .admin }
}

extension ConsoleFlow {
    /// The signed-in operator whose session `token` names, if the session is signed in, within its absolute lifetime
    /// and not idle for ``idleTimeout``; an expired session is deleted. Notes the request (at most once a minute).
    func caller(token: String?) async throws -> ConsoleCaller? {
        guard let token, !token.isEmpty else { return nil }
        let now = node.clock.now()
        let hash = Self.hash(token)
        let found = try await node.store.read { reader -> (ConsoleSessionRecord, ConsoleOperatorRecord?)? in
            guard let session = try await reader.consoleSession(tokenHash: hash) else { return nil }
            return (session, try await reader.consoleOperator(email: session.email))
        }
        guard case let (session, record)? = found, session.stage == .active else { return nil }
        guard let record, now - session.lastSeenAt < Self.idleTimeout, now - session.createdAt < Self.lifetime
        else {
            try await node.store.write { tx in try await tx.deleteConsoleSession(tokenHash: hash) }
            return nil
        }
        if now - session.lastSeenAt >= .seconds(60) {
            try await node.store.write { tx in try await tx.touchConsoleSession(tokenHash: hash, at: now) }
        }
        return ConsoleCaller(operatorRecord: record, csrf: Self.csrfToken(for: token))
    }
}
