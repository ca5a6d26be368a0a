import FlintCore
import FlintStore
import Hummingbird

/// Dev mode only: the dev outbox's codes and links that can still be used, one click away, as the Firebase emulator's
/// UI shows them (the same lists as `/emulator/v1/projects/{project}/verificationCodes` and `…/oobCodes`). The route
/// is not registered in production, where the console never shows what would sign someone in.
extension ConsoleRoutes {
    func devOutbox(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let node = flow.node
        let (now, maxAttempts) = (node.clock.now(), node.settings.maxCodeAttempts)
        let (texts, emails) = try await node.store.read { reader in
            (
                try await reader.pendingCodeMessages(now: now, maxAttempts: maxAttempts, phoneNumber: nil),
                try await reader.pendingOobMessages(now: now)
            )
        }
        let codes: [[String: Any]] = texts.reversed().compactMap { m in
            guard let code = m.code else { return nil }
            return ["to": m.recipient, "code": code, "created": Self.time(m.createdAt)]
        }
        let links: [[String: Any]] = emails.reversed().compactMap { m in
            guard let parts = m.email, !parts.link.isEmpty else { return nil }
            return [
                "to": m.recipient, "kind": parts.requestType.rawValue, "link": parts.link, "code": m.code ?? "", "subject": parts.subject,
                "created": Self.time(m.createdAt),
            ]
        }
        return pages.page("outbox", title: "Outbox", ["codes": codes, "links": links], caller: caller)
    }
}
