import Crypto
import FlintCore
import FlintStore

/// Which audit events become which webhook events, and what a delivery's body says. The audit log is written in each
/// change's transaction, so an event exists exactly when its change does; webhook events are read from it after
/// commit. The webhooks' own audit kinds map to nothing, so deliveries never make deliveries.
enum WebhookEvents {
    /// The audit kinds a webhook event type is read from.
    static func auditKinds(of type: WebhookEventType) -> [AuditKind] {
        switch type {
        case .userCreated: [.signIn, .accountCreated]
        case .userSignedIn: [.signIn]
        case .userDeleted: [.accountDeleted]
        case .userDisabled: [.accountDisabled]
        case .userEnabled: [.accountEnabled]
        case .mfaEnrolled: [.mfaEnrolled]
        case .passwordChanged: [.passwordChanged, .passwordReset]
        case .emailChanged: [.emailChanged, .emailRecovered]
        default: []
        }
    }

    /// The audit kinds to read for `types`, each once.
    static func auditKinds(of types: [WebhookEventType]) -> [AuditKind] {
        var kinds: [AuditKind] = []
        for kind in types.flatMap(auditKinds(of:)) where !kinds.contains(kind) { kinds.append(kind) }
        return kinds
    }

    /// The webhook event types `event` is, among `subscribed`, in the order of ``WebhookEventType/all``.
    static func types(of event: AuditEvent, subscribed: [WebhookEventType]) -> [WebhookEventType] {
        WebhookEventType.all.filter { type in
            guard subscribed.contains(type), auditKinds(of: type).contains(event.kind) else { return false }
            switch (type, event.kind) {
            // A sign-up or first sign-in: `SIGN_IN` with `newUser`.
            case (.userCreated, .signIn): return event.detail["newUser"]?.boolValue == true
            // A session issued, not a second factor asked for.
            case (.userSignedIn, .signIn): return event.detail["result"]?.stringValue == "TOKENS"
            default: return event.uid != nil
            }
        }
    }

    /// The delivery's body: `{"type":…,"timestamp":<RFC 3339>,"data":{"uid":…,…}}`, with the event's non-secret facts
    /// (the audit log holds no code, token, password or link) and, for an account of a tenant, its `tenantId`.
    static func payload(_ type: WebhookEventType, event: AuditEvent) -> String {
        var data: [String: JSONValue] = ["uid": event.uid.map(JSONValue.string) ?? .null]
        if let tenant = event.detail["tenantId"] { data["tenantId"] = tenant }
        let keep: [String]
        switch event.kind {
        case .signIn: keep = ["method", "newUser"]
        case .mfaEnrolled: keep = ["factor", "enrollmentId"]
        case .passwordChanged: keep = ["removed"]
        case .emailChanged: keep = ["from", "to"]
        default: keep = []
        }
        for key in keep { if let value = event.detail[key] { data[key] = value } }
        if event.kind == .passwordReset { data["reset"] = true }
        if event.kind == .emailRecovered {
            data["to"] = event.detail["email"] ?? .null
            data["recovered"] = true
        }
        let body: JSONValue = ["type": .string(type.rawValue), "timestamp": .string(RFC3339.format(event.at)), "data": .object(data)]
        return String(decoding: body.serialized(sortingKeys: true), as: UTF8.self)
    }

    /// The `webhook-id` every attempt of one event's delivery to one subscription carries: the same for a redelivery
    /// and a replay, different for anything else.
    static func webhookID(subscription: String, auditID: Int64, type: WebhookEventType) -> String {
        let digest = SHA256.hash(data: Array("\(subscription)|\(auditID)|\(type.rawValue)".utf8))
        return "msg_" + Hex.encode(Array(digest.prefix(16)))
    }
}
