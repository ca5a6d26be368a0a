import FlintCore
import FlintStore
import Hummingbird

/// The security page: the audit log, filtered by kind and account.
extension ConsoleRoutes {
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
