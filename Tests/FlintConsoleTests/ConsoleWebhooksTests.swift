import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintConsole
@testable import FlintServer

@Suite("The console's webhooks page")
struct ConsoleWebhooksTests {
    /// A node serving the console with a signed-in operator of `role`, for `body`.
    private func withConsole(
        role: ConsoleRole = .admin, _ body: @escaping @Sendable (API, ConsoleOperator, TestNode) async throws -> Void
    ) async throws {
        let node = try await TestNode.make(modules: [ConsoleModule()])
        try await node.run { api in
            let op = try await api.addOperator("ops@example.com", role: role, password: consoleTestPassword, store: node.store)
            try await body(api, try await api.consoleSignIn(op, password: consoleTestPassword), node)
        }
    }

    @Test("an operator adds a webhook (its secret shown once), disables it, replays a delivery and removes it: CSRF-checked, audited")
    func manage() async throws {
        try await withConsole { api, op, node in
            let empty = try await api.console(.get, "/console/webhooks", cookie: op.cookie)
            #expect(empty.status == .ok && empty.text.contains("No webhook.") && empty.text.contains(#"name="event:user.signed_in""#))
            let bad = try await api.console(
                .post, "/console/webhooks", form: ["csrf": op.csrf, "action": "add", "url": "ftp://example.com", "event:user.created": "on"],
                cookie: op.cookie)
            #expect(bad.status == .badRequest && bad.text.contains("url must be"))
            let stale = try await api.console(
                .post, "/console/webhooks", form: ["action": "add", "url": "http://127.0.0.1:1/hook", "event:user.created": "on"], cookie: op.cookie)
            #expect(stale.status == .forbidden)
            let added = try await api.console(
                .post, "/console/webhooks",
                form: ["csrf": op.csrf, "action": "add", "url": "http://127.0.0.1:1/hook", "event:user.created": "on", "event:email.changed": "on"],
                cookie: op.cookie)
            #expect(added.status == .ok, "\(added.text)")
            let hook = try #require(try await node.store.read { try await $0.webhookSubscriptions() }.first)
            #expect(hook.events == [.userCreated, .emailChanged])
            let secret = try #require(API.field(added.text, after: "Signing secret: <code>", until: "<"))
            #expect(secret.hasPrefix("whsec_"))
            let listed = try await api.console(.get, "/console/webhooks", cookie: op.cookie)
            #expect(listed.text.contains(hook.id) && !listed.text.contains(secret), "the secret is shown only once")

            let disabled = try await api.console(
                .post, "/console/webhooks", form: ["csrf": op.csrf, "action": "disable", "subscription": hook.id], cookie: op.cookie)
            #expect(disabled.status == .ok && disabled.text.contains("disabled"))
            let now = node.clock.now()
            try await node.store.write { tx in
                _ = try await tx.enqueueWebhookDeliveries([
                    WebhookDelivery(
                        subscriptionID: hook.id, auditID: 1, eventType: .userCreated, webhookID: "msg_console", payload: "{}", nextAttemptAt: now,
                        createdAt: now)
                ])
                let sequence = try #require(try await tx.webhookDeliveries(subscriptionID: hook.id, before: nil, limit: 1).first?.sequence)
                try await tx.finishWebhookDelivery(
                    sequence: sequence, status: .failed, nextAttemptAt: now, error: "HTTP 500", responseStatus: 500, at: now)
            }
            let delivery = try #require(
                try await node.store.read { try await $0.webhookDeliveries(subscriptionID: hook.id, before: nil, limit: 1) }.first)
            let page = try await api.console(.get, "/console/webhooks?subscription=\(hook.id)", cookie: op.cookie)
            #expect(
                page.text.contains("msg_console") && page.text.contains("failed") && page.text.contains("HTTP 500") && page.text.contains("Replay"))
            let sequence = try #require(delivery.sequence)
            let replayed = try await api.console(
                .post, "/console/webhooks", form: ["csrf": op.csrf, "action": "replay", "delivery": "\(sequence)", "subscription": hook.id],
                cookie: op.cookie)
            #expect(replayed.status == .ok && replayed.text.contains("queued again"))
            let queued = try await node.store.read { try await $0.webhookDelivery(sequence: sequence) }
            #expect(queued?.status == .pending && queued?.attempts == 0, "queued again; its subscription is off, so it waits")

            let removed = try await api.console(
                .post, "/console/webhooks", form: ["csrf": op.csrf, "action": "remove", "subscription": hook.id], cookie: op.cookie)
            #expect(removed.status == .ok && removed.text.contains("No webhook.") && removed.text.contains("No delivery."))

            let changes = try await api.auditEvents("kind=WEBHOOK_CHANGED")
            #expect(changes.compactMap { $0["detail"]?["action"]?.stringValue } == ["removed", "replayed", "disabled", "created"])
            #expect(changes.allSatisfy { $0["actor"]?.stringValue == "ops@example.com" })
            let actions = try await api.auditEvents("kind=ADMIN_ACTION").compactMap { $0["detail"]?["action"]?.stringValue }
            #expect(actions.prefix(4) == ["removeWebhook", "replayWebhookDelivery", "disableWebhook", "createWebhook"])
        }
    }

    @Test("a read-only operator sees the page without its forms and is refused a change")
    func readOnly() async throws {
        try await withConsole(role: .read) { api, op, _ in
            let page = try await api.console(.get, "/console/webhooks", cookie: op.cookie)
            #expect(page.status == .ok && !page.text.contains("Add a webhook"))
            let refused = try await api.console(
                .post, "/console/webhooks", form: ["csrf": op.csrf, "action": "add", "url": "https://example.com/in", "event:user.created": "on"],
                cookie: op.cookie)
            #expect(refused.status == .forbidden)
        }
    }
}
