import FlintCore
import FlintStore
import Hummingbird

/// The deliveries page (the SMS and email outbox) and the security page (the audit log).
extension ConsoleRoutes {
    /// Messages the deliveries page shows, newest first.
    static let deliveriesShown = 200

    func deliveries(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let messages = try await flow.node.store.read { try await $0.outbox(limit: 10_000) }
        let devMode = pages.devMode
        let rows: [[String: Any]] = messages.suffix(Self.deliveriesShown).reversed().map { m in
            var row: [String: Any] = [
                "created": Self.time(m.createdAt), "channel": m.channel.rawValue, "to": m.recipient, "status": m.status.rawValue,
                "attempts": m.attempts, "detail": m.statusDetail ?? "",
            ]
            // Codes and links only in dev mode: in production the console never shows what would sign someone in.
            if devMode {
                row["code"] = m.code ?? ""
                if let link = m.email?.link, !link.isEmpty { row["link"] = link }
            }
            return row
        }
        let explanation =
            devMode
            ? "The outbox, newest first. Dev mode: codes and links are shown." : "The outbox, newest first. Codes and links are never shown."
        return pages.page("deliveries", title: "Deliveries", ["messages": rows, "explanation": explanation], caller: caller)
    }

    func security(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let kind = ConsoleForm.query("kind", in: request)
        let uid = ConsoleForm.query("uid", in: request)
        let filter = AuditListing.Filter(uid: uid, kind: kind, pageSize: "50", pageToken: ConsoleForm.query("page", in: request))
        var data: [String: Any] = [
            "uid": uid ?? "", "kinds": AuditKind.all.map { ["name": $0.rawValue, "selected": $0.rawValue == kind] as [String: Any] },
        ]
        do {
            let page = try await AuditListing.page(filter, in: flow.node.store)
            data["events"] = page.events.map { event -> [String: Any] in
                [
                    "at": Self.time(event.at), "kind": event.kind.rawValue, "uid": event.uid ?? "", "actor": event.actor ?? "", "ip": event.ip ?? "",
                    "detail": Self.text(event.detail),
                ]
            }
            if let next = page.nextPageToken {
                data["next"] = "/console/security?" + Self.queryString(["kind": kind ?? "", "uid": uid ?? "", "page": next])
            }
        } catch let error as AuthError {
            data["error"] = error.message
        }
        return pages.page("security", title: "Security", data, caller: caller)
    }

    /// An event's detail as one line of JSON.
    static func text(_ detail: [String: JSONValue]) -> String {
        String(decoding: JSONValue.object(detail).serialized(), as: UTF8.self)
    }
}
