import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("Webhook storage: subscriptions, idempotent deliveries, leases")
struct WebhooksStoreTests {
    static func subscription(_ id: String, enabled: Bool = true, cursor: Int64 = 0) -> WebhookSubscription {
        WebhookSubscription(
            id: id, url: "https://hooks.example.com/\(id)", events: [.userCreated, .userDeleted], secret: "whsec_x", enabled: enabled,
            description: "note", createdAt: 1_000, cursor: cursor)
    }

    static func delivery(_ subscription: String, audit: Int64, type: WebhookEventType = .userCreated, at now: Instant = 2_000)
        -> WebhookDelivery
    {
        WebhookDelivery(
            subscriptionID: subscription, auditID: audit, eventType: type, webhookID: "msg_\(subscription)_\(audit)_\(type)", payload: "{}",
            nextAttemptAt: now, createdAt: now)
    }

    @Test("a subscription is stored, listed, turned off and removed with its deliveries", arguments: Engine.all)
    func subscriptions(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.insertWebhookSubscription(Self.subscription("wh_a"))
            _ = try await tx.enqueueWebhookDeliveries([Self.delivery("wh_a", audit: 1)])
        }
        #expect(try await store.read { try await $0.webhookSubscriptions() } == [Self.subscription("wh_a")])
        #expect(try await store.write { try await $0.setWebhookSubscription(id: "wh_a", enabled: false) })
        #expect(try await store.write { try await $0.setWebhookSubscription(id: "wh_none", enabled: false) } == false)
        #expect(try await store.read { try await $0.webhookSubscription(id: "wh_a") }?.enabled == false)
        try await store.write { try await $0.advanceWebhookCursor(id: "wh_a", to: 7) }
        try await store.write { try await $0.advanceWebhookCursor(id: "wh_a", to: 3) }
        #expect(try await store.read { try await $0.webhookSubscription(id: "wh_a") }?.cursor == 7, "a cursor never moves back")
        #expect(try await store.write { try await $0.deleteWebhookSubscription(id: "wh_a") })
        #expect(try await store.read { try await $0.webhookDeliveries(subscriptionID: nil, before: nil, limit: 10) }.isEmpty)
        #expect(try await store.write { try await $0.deleteWebhookSubscription(id: "wh_a") } == false)
        try await store.close()
    }

    @Test("a delivery is stored once per subscription, audit event and type, whichever node adds it", arguments: Engine.all)
    func idempotentEnqueue(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { try await $0.insertWebhookSubscription(Self.subscription("wh_a")) }
        let batch = [Self.delivery("wh_a", audit: 1), Self.delivery("wh_a", audit: 1, type: .userDeleted), Self.delivery("wh_a", audit: 2)]
        #expect(try await store.write { try await $0.enqueueWebhookDeliveries(batch) } == 3)
        #expect(try await store.write { try await $0.enqueueWebhookDeliveries(batch + [Self.delivery("wh_a", audit: 3)]) } == 1)
        let all = try await store.read { try await $0.webhookDeliveries(subscriptionID: "wh_a", before: nil, limit: 10) }
        #expect(all.map(\.auditID) == [3, 2, 1, 1], "newest first")
        let page = try await store.read { try await $0.webhookDeliveries(subscriptionID: "wh_a", before: all[1].sequence, limit: 1) }
        #expect(page.map(\.sequence) == [all[2].sequence])
        try await store.close()
    }

    @Test("a claim holds a delivery for its lease: one of two stores claims it, the other again only once the lease ran out", arguments: Engine.all)
    func leases(engine: Engine) async throws {
        let (store, location) = try await makeStore(engine)
        let (other, _) = try await makeStore(engine, location: location)
        try await store.write { tx in
            try await tx.insertWebhookSubscription(Self.subscription("wh_a"))
            _ = try await tx.enqueueWebhookDeliveries([Self.delivery("wh_a", audit: 1)])
        }
        let sequence = try #require(try await store.read { try await $0.dueWebhookDeliveries(now: 2_000, limit: 10) }.first)
        #expect(try await store.read { try await $0.dueWebhookDeliveries(now: 1_999, limit: 10) }.isEmpty, "not due before its time")
        let claims = try await withThrowingTaskGroup(of: WebhookDelivery?.self) { group in
            for db in [store, other] {
                group.addTask { try await db.write { try await $0.claimWebhookDelivery(sequence: sequence, now: 2_000, leaseUntil: 62_000) } }
            }
            return try await group.reduce(into: [WebhookDelivery]()) { if let claim = $1 { $0.append(claim) } }
        }
        #expect(claims.count == 1 && claims.first?.attempts == 1 && claims.first?.status == .sending)
        #expect(try await other.write { try await $0.claimWebhookDelivery(sequence: sequence, now: 61_999, leaseUntil: 99_000) } == nil)
        #expect(try await store.read { try await $0.nextWebhookDue() } == 62_000)
        let retaken = try await other.write { try await $0.claimWebhookDelivery(sequence: sequence, now: 62_001, leaseUntil: 122_001) }
        #expect(retaken?.attempts == 2, "a lease that ran out is taken over (a node died mid-delivery)")
        try await other.write {
            try await $0.finishWebhookDelivery(
                sequence: sequence, status: .pending, nextAttemptAt: 70_000, error: "HTTP 500", responseStatus: 500, at: 63_000)
        }
        let failed = try #require(try await store.read { try await $0.webhookDelivery(sequence: sequence) })
        #expect(failed.status == .pending && failed.lastError == "HTTP 500" && failed.lastStatus == 500 && failed.lastAttemptAt == 63_000)
        #expect(try await store.read { try await $0.nextWebhookDue() } == 70_000)
        try await store.close()
        try await other.close()
    }

    @Test("a disabled subscription's deliveries are not due; a replay queues one again with a fresh round", arguments: Engine.all)
    func disabledAndReplay(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            try await tx.insertWebhookSubscription(Self.subscription("wh_a"))
            _ = try await tx.enqueueWebhookDeliveries([Self.delivery("wh_a", audit: 1)])
        }
        let sequence = try #require(try await store.read { try await $0.dueWebhookDeliveries(now: 5_000, limit: 10) }.first)
        _ = try await store.write { try await $0.claimWebhookDelivery(sequence: sequence, now: 5_000, leaseUntil: 6_000) }
        try await store.write {
            try await $0.finishWebhookDelivery(
                sequence: sequence, status: .failed, nextAttemptAt: 5_500, error: "HTTP 410", responseStatus: 410, at: 5_500)
        }
        #expect(try await store.read { try await $0.dueWebhookDeliveries(now: 9_000, limit: 10) }.isEmpty, "a failed delivery is done")
        #expect(try await store.write { try await $0.replayWebhookDelivery(sequence: sequence, now: 9_000) })
        #expect(try await store.write { try await $0.replayWebhookDelivery(sequence: 999_999, now: 9_000) } == false)
        let replayed = try #require(try await store.read { try await $0.webhookDelivery(sequence: sequence) })
        #expect(replayed.status == .pending && replayed.attempts == 0 && replayed.webhookID == "msg_wh_a_1_user.created")
        _ = try await store.write { try await $0.setWebhookSubscription(id: "wh_a", enabled: false) }
        #expect(try await store.read { try await $0.dueWebhookDeliveries(now: 9_000, limit: 10) }.isEmpty)
        #expect(try await store.read { try await $0.nextWebhookDue() } == nil)
        #expect(try await store.write { try await $0.claimWebhookDelivery(sequence: sequence, now: 9_000, leaseUntil: 10_000) } == nil)
        _ = try await store.write { try await $0.setWebhookSubscription(id: "wh_a", enabled: true) }
        #expect(try await store.read { try await $0.dueWebhookDeliveries(now: 9_000, limit: 10) } == [sequence])
        try await store.close()
    }

    @Test("audit events are read after a cursor, by kind, oldest first; finished deliveries are swept", arguments: Engine.all)
    func eventsAfterCursor(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        #expect(try await store.read { try await $0.latestAuditEventID() } == 0)
        try await store.write { tx in
            for (kind, uid) in [(AuditKind.signIn, "u1"), (.accountDeleted, "u2"), (.webhookDelivered, nil), (.accountDeleted, "u3")] {
                try await tx.appendAuditEvent(AuditEvent(at: 1_000, kind: kind, uid: uid))
            }
        }
        let latest = try await store.read { try await $0.latestAuditEventID() }
        let deletions = try await store.read { try await $0.auditEvents(after: 0, kinds: [.accountDeleted], limit: 10) }
        #expect(deletions.map(\.uid) == ["u2", "u3"])
        let after = try await store.read { [deletions] in
            try await $0.auditEvents(after: deletions[0].id ?? 0, kinds: [.accountDeleted, .signIn], limit: 10)
        }
        #expect(after.map(\.uid) == ["u3"] && after.last?.id == latest)
        #expect(try await store.read { try await $0.auditEvents(after: 0, kinds: [], limit: 10) }.isEmpty)

        try await store.write { tx in
            try await tx.insertWebhookSubscription(Self.subscription("wh_a"))
            _ = try await tx.enqueueWebhookDeliveries([Self.delivery("wh_a", audit: 1), Self.delivery("wh_a", audit: 2)])
        }
        let sequences = try await store.read { try await $0.dueWebhookDeliveries(now: 2_000, limit: 10) }
        try await store.write { tx in
            try await tx.finishWebhookDelivery(
                sequence: sequences[0], status: .delivered, nextAttemptAt: 2_000, error: nil, responseStatus: 204, at: 2_000)
        }
        #expect(try await store.write { try await $0.deleteWebhookDeliveries(finishedBefore: 3_000) } == 1)
        #expect(
            try await store.read { try await $0.webhookDeliveries(subscriptionID: nil, before: nil, limit: 10) }.map(\.sequence) == [sequences[1]])
        try await store.close()
    }
}
