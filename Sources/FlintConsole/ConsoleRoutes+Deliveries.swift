import FlintCore
import FlintServer
import FlintStore
import Hummingbird

/// The deliveries page: the SMS and email outbox newest first, filtered by channel, status and recipient, in keyset
/// pages on the outbox's sequence.
extension ConsoleRoutes {
    /// Messages per page.
    static let deliveriesPageSize = 50
    /// The channels and statuses the filters offer.
    static let channels: [OutboxChannel] = [.sms, .email, .apns]
    static let statuses: [OutboxStatus] = [.dev, .queued, .sending, .sent, .failed]

    func deliveries(_ request: Request, context: FlintRequestContext) async throws -> Response {
        guard let caller = try await caller(request) else { return Self.toSignIn }
        let channel = ConsoleForm.query("channel", in: request).map(OutboxChannel.init(rawValue:)).flatMap { Self.channels.contains($0) ? $0 : nil }
        let status = ConsoleForm.query("status", in: request).map(OutboxStatus.init(rawValue:)).flatMap { Self.statuses.contains($0) ? $0 : nil }
        let to = ConsoleForm.query("to", in: request) ?? ""
        let filter = OutboxFilter(
            channel: channel, status: status, recipient: Self.recipient(to, region: flow.node.config.current.defaultPhoneRegion))
        let before = ConsoleForm.query("before", in: request).flatMap { Int64($0) }
        let limit = Self.deliveriesPageSize
        let found = try await flow.node.store.read { try await $0.outbox(filter, before: before, limit: limit + 1) }
        let devMode = pages.devMode
        let rows: [[String: Any]] = found.prefix(limit).map { m in
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
        let filtered = filter != OutboxFilter()
        var data: [String: Any] = [
            "messages": rows, "to": to, "filtered": filtered,
            "channels": Self.channels.map { ["name": $0.rawValue, "selected": $0 == channel] as [String: Any] },
            "statuses": Self.statuses.map { ["name": $0.rawValue, "selected": $0 == status] as [String: Any] },
            "explanation": devMode
                ? "The outbox, newest first. Dev mode: codes and links are shown." : "The outbox, newest first. Codes and links are never shown.",
        ]
        if found.count > limit, let last = found.prefix(limit).last?.sequence {
            let fields = ["channel": channel?.rawValue ?? "", "status": status?.rawValue ?? "", "to": to, "before": String(last)]
            data["next"] = "/console/deliveries?" + Self.queryString(fields)
        }
        return pages.page("deliveries", title: "Deliveries", data, caller: caller)
    }

    /// The recipient a filter looks for: a phone number (international, or national in the project's default phone
    /// region `region`) as E.164, an email in lower case, else the text as typed; `nil` when empty.
    static func recipient(_ text: String, region: String?) -> String? {
        let typed = text.trimmingSpaces
        guard !typed.isEmpty else { return nil }
        switch ConsoleFlow.exactFilter(typed, region: region) {
        case .email(let email)?: return email
        case .phoneNumber(let number)?: return number
        default: return typed
        }
    }
}

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
                try await reader.pendingCodeMessages(tenant: .default, now: now, maxAttempts: maxAttempts, phoneNumber: nil),
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
