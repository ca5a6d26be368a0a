import AsyncHTTPClient
package import FlintCore
import FlintStore
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Event webhooks' delivery on one node, run by ``WebhookService``: turns the audit events after each enabled
/// subscription's cursor into durable deliveries (one per subscription, event and type, whichever node sees the event
/// first), then claims due deliveries with a lease and POSTs them, signed per Standard Webhooks. At least once: a node
/// that dies between the POST and recording it leaves a lease that runs out, and the delivery is sent again with the
/// same `webhook-id`. A failed attempt is tried again after ``StandardWebhook/retryDelays`` (with jitter), then the
/// delivery is `failed`. Every attempt's outcome is audited (`WEBHOOK_DELIVERED`, `WEBHOOK_FAILED`), kinds that map to
/// no webhook event.
package final class WebhookDispatcher: Sendable {
    let node: Node
    /// The store without ``WebhookWakingStore``: the dispatcher's own writes do not wake it.
    let store: any AuthStore
    let secrets: SecretsAtRest
    let wake: WebhookWake
    let client: HTTPClient
    /// Audit events already turned into deliveries past each subscription's cursor (which trails by ``settle``).
    private let seen = Mutex<[String: Set<Int64>]>([:])

    /// How old an audit event must be before a cursor moves past it. Sequence numbers are taken when an event is
    /// inserted, not when its transaction commits: on PostgreSQL a smaller number may become visible after a larger
    /// one, so the cursor keeps the recent events in view (turning one into a delivery twice is a no-op).
    static let settle: Duration = .seconds(60)
    /// How long a claim on a delivery lasts before another node may take it over.
    static let lease: Duration = .seconds(60)
    /// How long one attempt may take.
    static let timeout: Duration = .seconds(10)
    /// Audit events read at once.
    static let batch = 200
    /// Deliveries sent at once.
    static let parallel = 8

    init(node: Node, store: any AuthStore, secrets: SecretsAtRest, wake: WebhookWake, client: HTTPClient = .shared) {
        (self.node, self.store, self.secrets, self.wake, self.client) = (node, store, secrets, wake, client)
    }

    /// One round: new events into deliveries, then every due delivery attempted. Failures are logged, never thrown.
    /// - Returns: when the next delivery becomes due, if one waits.
    @discardableResult
    package func runOnce() async -> Instant? {
        do {
            try await enqueueNewEvents()
        } catch {
            node.logger.warning("reading events for webhooks failed", metadata: ["errorType": "\(type(of: error))"])
        }
        do {
            try await deliverDue()
            return try await store.read { try await $0.nextWebhookDue() }
        } catch {
            node.logger.warning("webhook deliveries failed", metadata: ["errorType": "\(type(of: error))"])
            return nil
        }
    }

    /// Turns each enabled subscription's new audit events into deliveries, and moves its cursor past the settled ones.
    func enqueueNewEvents() async throws {
        let subscriptions = try await store.read { try await $0.webhookSubscriptions() }.filter(\.enabled)
        wake.isActive = !subscriptions.isEmpty
        seen.withLock { seen in seen = seen.filter { id, _ in subscriptions.contains { $0.id == id } } }
        for subscription in subscriptions { try await enqueue(for: subscription) }
    }

    private func enqueue(for subscription: WebhookSubscription) async throws {
        let kinds = WebhookEvents.auditKinds(of: subscription.events)
        var after = subscription.cursor
        while true {
            let events = try await store.read { [after] in try await $0.auditEvents(after: after, kinds: kinds, limit: Self.batch) }
            guard let last = events.last?.id else { return }
            let now = node.clock.now()
            let known = seen.withLock { $0[subscription.id] ?? [] }
            // The cursor moves over the leading events old enough that no earlier one can still be committed.
            let settled = events.prefix { $0.at <= now - Self.settle }.last?.id
            var deliveries: [WebhookDelivery] = []
            for event in events {
                guard let id = event.id, !known.contains(id) else { continue }
                for type in WebhookEvents.types(of: event, subscribed: subscription.events) {
                    deliveries.append(
                        WebhookDelivery(
                            subscriptionID: subscription.id, auditID: id, eventType: type,
                            webhookID: WebhookEvents.webhookID(subscription: subscription.id, auditID: id, type: type),
                            payload: WebhookEvents.payload(type, event: event), nextAttemptAt: now, createdAt: now))
                }
            }
            if !deliveries.isEmpty || settled != nil {
                try await store.write { [deliveries] tx in
                    _ = try await tx.enqueueWebhookDeliveries(deliveries)
                    if let settled { try await tx.advanceWebhookCursor(id: subscription.id, to: settled) }
                }
            }
            seen.withLock { seen in
                var ids = seen[subscription.id] ?? []
                ids.formUnion(events.compactMap(\.id))
                if let settled { ids = ids.filter { $0 > settled } }
                seen[subscription.id] = ids
            }
            after = last
            if events.count < Self.batch { return }
        }
    }

    /// Attempts every due delivery, a few at once.
    func deliverDue() async throws {
        let now = node.clock.now()
        let due = try await store.read { try await $0.dueWebhookDeliveries(now: now, limit: 100) }
        for start in stride(from: 0, to: due.count, by: Self.parallel) {
            await withTaskGroup(of: Void.self) { group in
                for sequence in due[start..<min(start + Self.parallel, due.count)] {
                    group.addTask { await self.deliver(sequence: sequence) }
                }
            }
        }
    }

    /// Claims delivery `sequence` and attempts it; does nothing when another node holds it or it is not due.
    func deliver(sequence: Int64) async {
        let now = node.clock.now()
        let claimed: (WebhookDelivery, WebhookSubscription)?
        do {
            claimed = try await store.write { tx in
                guard let delivery = try await tx.claimWebhookDelivery(sequence: sequence, now: now, leaseUntil: now + Self.lease),
                    let subscription = try await tx.webhookSubscription(id: delivery.subscriptionID)
                else { return nil }
                return (delivery, subscription)
            }
        } catch {
            node.logger.warning("webhook claim failed", metadata: ["seq": "\(sequence)", "errorType": "\(type(of: error))"])
            return
        }
        guard let (delivery, subscription) = claimed else { return }
        let outcome = await send(delivery, to: subscription)
        let end = node.clock.now()
        let status: WebhookDeliveryStatus
        var next = end
        var detail: [String: JSONValue] = [
            "subscription": .string(subscription.id), "webhookId": .string(delivery.webhookID), "type": .string(delivery.eventType.rawValue),
            "attempt": .number(Double(delivery.attempts)), "delivery": .number(Double(sequence)),
        ]
        if let code = outcome.status { detail["status"] = .number(Double(code)) }
        if let error = outcome.error {
            if let delay = StandardWebhook.retryDelay(afterAttempt: delivery.attempts, random: node.random) {
                (status, next) = (.pending, end + delay)
            } else {
                status = .failed
            }
            detail["error"] = .string(error)
            detail["final"] = .bool(status == .failed)
            node.logger.warning(
                status == .failed ? "webhook delivery gave up" : "webhook delivery will be retried",
                metadata: ["seq": "\(sequence)", "attempt": "\(delivery.attempts)", "reason": "\(error)"])
        } else {
            status = .delivered
        }
        node.metrics.delivery(channel: "webhook", result: status == .pending ? "retry" : status.rawValue, kind: delivery.eventType.rawValue)
        do {
            try await store.write { [detail, next] tx in
                try await tx.finishWebhookDelivery(
                    sequence: sequence, status: status, nextAttemptAt: next, error: outcome.error, responseStatus: outcome.status, at: end)
                try await tx.appendAuditEvent(AuditEvent(at: end, kind: status == .delivered ? .webhookDelivered : .webhookFailed, detail: detail))
            }
        } catch {
            node.logger.warning("webhook outcome could not be recorded", metadata: ["seq": "\(sequence)", "errorType": "\(type(of: error))"])
        }
    }

    /// One attempt's outcome: the answer's status, and why it failed (`nil`: a 2xx answer).
    struct Outcome: Sendable {
        var status: Int?
        var error: String?
    }

    /// POSTs the delivery's body to the subscription's URL with the Standard Webhooks headers, signed now.
    func send(_ delivery: WebhookDelivery, to subscription: WebhookSubscription) async -> Outcome {
        let key: [UInt8]
        do {
            guard let bytes = StandardWebhook.key(of: try secrets.openWebhookSecret(subscription.secret, id: subscription.id)) else {
                return Outcome(error: "the subscription's secret is damaged")
            }
            key = bytes
        } catch {
            return Outcome(error: "the subscription's secret does not open with the master key")
        }
        let body = Array(delivery.payload.utf8)
        var request = HTTPClientRequest(url: subscription.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Flint-Webhooks")
        for (name, value) in StandardWebhook.headers(key: key, id: delivery.webhookID, at: node.clock.now(), body: body) {
            request.headers.add(name: name, value: value)
        }
        request.body = .bytes(body)
        do {
            let response = try await OutgoingCall.execute(
                request, timeout: .milliseconds(Self.timeout.inMilliseconds), client: client, tracer: node.settings.tracer, peer: "webhook")
            _ = try? await response.body.collect(upTo: 1 << 16)
            let code = Int(response.status.code)
            return (200..<300).contains(code) ? Outcome(status: code) : Outcome(status: code, error: "HTTP \(code)")
        } catch {
            return Outcome(error: "\(type(of: error))")
        }
    }
}
