import FlintCore
import FlintServer
import FlintStore
import Hummingbird

/// The security page: the audit log of the page's tenant, filtered by kind and account.
extension ConsoleRoutes {
    func security(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let kind = ConsoleForm.query("kind", in: request)
        let uid = ConsoleForm.query("uid", in: request)
        // The page's tenant's events only (an event names its tenant, `tenantId`, unless it is the project's), from the
        // store's tenant index: every page is full.
        let filter = AuditListing.Filter(uid: uid, kind: kind, pageSize: "50", pageToken: ConsoleForm.query("page", in: request), tenant: .scoped)
        var data: [String: Any] = [
            "uid": uid ?? "", "kinds": AuditKind.all.map { ["name": $0.rawValue, "selected": $0.rawValue == kind] as [String: Any] },
        ]
        do {
            let page = try await AuditListing.page(filter, in: flow.node.store)
            data["events"] = page.events.map { event -> [String: Any] in
                var row: [String: Any] = [
                    "at": Self.time(event.at), "kind": event.kind.rawValue, "actor": event.actor ?? "", "ip": event.ip ?? "",
                    "detail": Self.text(event.detail),
                ]
                // An event without an account has no link (not an empty one to /console/users/).
                if let uid = event.uid, !uid.isEmpty { row["account"] = uid }
                return row
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

/// The signing keys page: the keys with their state, and a confirmed rotation (as `keys:rotate` does it).
extension ConsoleRoutes {
    func showKeys(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        var data = try await keysData()
        if let kid = ConsoleForm.query("rotated", in: request), let key = flow.keys.current.key(kid: kid) {
            data["notice"] = "Rotation scheduled: key \(kid) is published and signs new tokens from \(Self.time(key.activatesAt))."
        }
        return pages.page("keys", title: "Keys", data, caller: caller)
    }

    func rotateKeys(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request) { caller, form in
            guard form["confirmed"] == "yes" else {
                var data = try await keysData()
                data["confirming"] = true
                return pages.page("keys", title: "Keys", data, caller: caller)
            }
            let origin = AuditOrigin(ip: context.clientIP, actor: caller.email)
            let scheduled = try await AuditOrigin.$current.withValue(origin) { try await KeyRotationRoutes.rotate(node: flow.node, keys: flow.keys) }
            await flow.node.recordAudit(
                origin.event(
                    .adminAction, uid: nil, at: flow.node.clock.now(),
                    ["action": "rotateKeys", "kid": .string(scheduled.kid), "activateTime": .string(RFC3339.format(scheduled.activatesAt))]))
            return ConsolePages.redirect("/console/keys?rotated=\(scheduled.kid)")
        }
    }

    /// The keys, the latest to sign first, with their state at this instant (as this node's ring has them).
    private func keysData() async throws -> [String: Any] {
        try await flow.keys.reload()
        let ring = flow.keys.current
        let now = flow.node.clock.now()
        let rows: [[String: Any]] = ring.keys.map { key in
            let state: String =
                switch ring.state(of: key, at: now) {
                case .scheduled: "scheduled, published"
                case .active: "active"
                case .retired: "retired, still published"
                case .expired: "retired"
                case .revoked: "revoked"
                }
            return [
                "kid": key.kid, "created": Self.time(key.createdAt), "activates": Self.time(key.activatesAt),
                "retired": key.retiredAt.map(Self.time) ?? "—", "state": state,
            ]
        }
        return ["keys": rows]
    }
}
