import FlintCore
import FlintServer
import FlintStore
import Hummingbird

/// The webhooks page: the event webhook subscriptions, a form to add one (its secret shown once, on the page the form
/// answers), each one's switch and removal, and the recent deliveries (of one subscription when chosen) with their
/// status, attempts and last error, each with a replay button. Changes go through the admin API's rules
/// (``WebhookSubscriptions``), CSRF-checked, with the operator as the audit events' actor.
extension ConsoleRoutes {
    /// Deliveries the page lists.
    static let webhookDeliveriesShown = 50

    func webhooks(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let chosen = ConsoleForm.query("subscription", in: request)
        return pages.page("webhooks", title: "Webhooks", try await webhooksData(chosen: chosen), caller: caller)
    }

    func actOnWebhooks(_ request: Request, context: FlintRequestContext) async throws -> Response {
        try await change(request) { caller, form in
            let action = form["action"] ?? ""
            let origin = AuditOrigin(ip: context.clientIP, actor: caller.email)
            var data: [String: Any]
            do {
                let detail = try await AuditOrigin.$current.withValue(origin) { try await applyWebhook(action, form) }
                await flow.node.recordAudit(origin.event(.adminAction, uid: nil, at: flow.node.clock.now(), detail.audit))
                data = try await webhooksData(chosen: form["subscription"])
                data["notice"] = detail.notice
                if let secret = detail.secret { data["secret"] = secret }
            } catch let error as AuthError {
                data = try await webhooksData(chosen: form["subscription"])
                data["error"] = error.message
                data["url"] = form["url"] ?? ""
                return pages.page("webhooks", title: "Webhooks", data, caller: caller, status: error.status)
            }
            return pages.page("webhooks", title: "Webhooks", data, caller: caller)
        }
    }

    /// What an applied action tells the page and the audit log.
    private struct WebhookChange {
        var notice: String
        var audit: [String: JSONValue]
        var secret: String?
    }

    /// Applies one of the page's forms: `add`, `enable`, `disable`, `remove`, `replay`.
    private func applyWebhook(_ action: String, _ form: [String: String]) async throws -> WebhookChange {
        let hooks = flow.webhooks
        let id = form["subscription"] ?? ""
        switch action {
        case "add":
            let events = WebhookEventType.all.map(\.rawValue).filter { form["event:" + $0] != nil }
            let created = try await hooks.create(url: form["url"] ?? "", events: events, description: form["description"])
            return WebhookChange(
                notice: "Webhook \(created.subscription.id) added. Its signing secret is shown only now: copy it to the receiver.",
                audit: ["action": "createWebhook", "subscription": .string(created.subscription.id)], secret: created.secret)
        case "enable", "disable":
            _ = try await hooks.setEnabled(id, action == "enable")
            return WebhookChange(notice: "Webhook \(id) \(action)d.", audit: ["action": .string(action + "Webhook"), "subscription": .string(id)])
        case "remove":
            try await hooks.remove(id)
            return WebhookChange(
                notice: "Webhook \(id) removed with its deliveries.", audit: ["action": "removeWebhook", "subscription": .string(id)])
        case "replay":
            guard let sequence = form["delivery"].flatMap({ Int64($0) }) else { throw AuthError.invalidArgument("no delivery chosen") }
            try await hooks.replay(sequence)
            return WebhookChange(
                notice: "Delivery \(sequence) queued again (same webhook-id).",
                audit: ["action": "replayWebhookDelivery", "delivery": .string("\(sequence)")])
        default:
            throw AuthError.invalidArgument("unknown action")
        }
    }

    /// The page's subscriptions, the add form's event types, and the recent deliveries (of `chosen` when it names one).
    private func webhooksData(chosen: String?) async throws -> [String: Any] {
        let hooks = flow.webhooks
        let subscriptions = try await hooks.list()
        let selected = subscriptions.first { $0.id == chosen }?.id
        let deliveries = try await hooks.deliveries(of: selected, limit: Self.webhookDeliveriesShown)
        var data: [String: Any] = [
            "subscriptions": subscriptions.map { s -> [String: Any] in
                [
                    "id": s.id, "url": s.url, "events": s.events.map(\.rawValue).joined(separator: ", "), "enabled": s.enabled,
                    "description": s.description ?? "", "created": Self.time(s.createdAt), "selected": s.id == selected,
                ]
            },
            "eventTypes": WebhookEventType.all.map(\.rawValue),
            "deliveries": deliveries.map { d -> [String: Any] in
                [
                    "sequence": d.sequence.map { "\($0)" } ?? "", "created": Self.time(d.createdAt), "subscription": d.subscriptionID,
                    "type": d.eventType.rawValue, "status": d.status.rawValue, "attempts": d.attempts, "webhookId": d.webhookID,
                    "error": d.lastError ?? "", "next": d.status == .pending ? Self.time(d.nextAttemptAt) : "",
                ]
            },
        ]
        // Only a chosen subscription names itself in the deliveries' heading: an empty string would open that section.
        if let selected { data["chosen"] = selected }
        return data
    }
}
