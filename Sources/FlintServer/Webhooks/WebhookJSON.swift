package import FlintCore
package import FlintStore

/// Subscriptions and deliveries as the admin API answers them and `flint webhooks … --json` prints them.
package enum WebhookJSON {
    /// `{"name":"projects/p/webhooks/wh_…","id","url","events":[…],"enabled","description","createTime"}`; never the secret.
    package static func subscription(_ s: WebhookSubscription, projectID: String) -> JSONValue {
        var out: [String: JSONValue] = [
            "name": .string("projects/\(projectID)/webhooks/\(s.id)"), "id": .string(s.id), "url": .string(s.url),
            "events": .array(s.events.map { .string($0.rawValue) }), "enabled": .bool(s.enabled), "createTime": .string(RFC3339.format(s.createdAt)),
        ]
        if let description = s.description { out["description"] = .string(description) }
        return .object(out)
    }

    /// `{"id":"<sequence>","webhookId","subscription","type","status","attempts","nextAttemptTime","lastError",
    /// "lastStatus","createTime","lastAttemptTime"}`; never the body.
    package static func delivery(_ d: WebhookDelivery) -> JSONValue {
        var out: [String: JSONValue] = [
            "id": .string(d.sequence.map { "\($0)" } ?? ""), "webhookId": .string(d.webhookID), "subscription": .string(d.subscriptionID),
            "type": .string(d.eventType.rawValue), "status": .string(d.status.rawValue), "attempts": .number(Double(d.attempts)),
            "createTime": .string(RFC3339.format(d.createdAt)),
        ]
        if d.status == .pending { out["nextAttemptTime"] = .string(RFC3339.format(d.nextAttemptAt)) }
        if let error = d.lastError { out["lastError"] = .string(error) }
        if let status = d.lastStatus { out["lastStatus"] = .number(Double(status)) }
        if let at = d.lastAttemptAt { out["lastAttemptTime"] = .string(RFC3339.format(at)) }
        return .object(out)
    }
}
