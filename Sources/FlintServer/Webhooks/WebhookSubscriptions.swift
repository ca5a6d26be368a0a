package import FlintCore
package import FlintStore

/// The operators' event webhook subscriptions and their deliveries, as the admin API, the CLI and the console manage
/// them: one set of rules for the three. Each change is audited (`WEBHOOK_CHANGED`) in its transaction and announced
/// (``StoreChange/webhooks``), so every node's dispatcher looks again at once.
package struct WebhookSubscriptions: Sendable {
    let store: any AuthStore
    let secrets: SecretsAtRest
    let clock: any WallClock
    let random: any RandomSource
    /// Whether `http` URLs are accepted (dev mode), besides `https`.
    let allowsHTTP: Bool

    /// Subscriptions in `store`, their secrets sealed with `masterKey` (kept in clear without one).
    package init(
        store: any AuthStore, masterKey: MasterKey?, allowsHTTP: Bool, clock: any WallClock = SystemClock(), random: any RandomSource = SystemRandom()
    ) {
        (self.store, self.secrets, self.clock, self.random, self.allowsHTTP) = (store, SecretsAtRest(masterKey: masterKey), clock, random, allowsHTTP)
    }

    /// The most deliveries one listing answers.
    package static let maxPage = 500

    /// A new subscription and its secret, shown this once.
    package struct Created: Sendable {
        package var subscription: WebhookSubscription
        package var secret: String
    }

    /// Adds a subscription of `url` to `events`; it receives the events recorded from now on.
    /// - Throws: `INVALID_ARGUMENT` for a URL that is not absolute `https` (`http` too in dev mode), no event type or
    ///   an unknown one.
    package func create(url: String, events: [String], description: String?) async throws -> Created {
        guard let parsed = ContinueURL(url), parsed.scheme == "https" || (parsed.scheme == "http" && allowsHTTP) else {
            throw AuthError.invalidArgument(
                allowsHTTP ? "url must be an absolute http or https URL" : "url must be an absolute https URL")
        }
        let types = try Self.eventTypes(events)
        let id = "wh_" + Hex.encode(random.bytes(12))
        let secret = StandardWebhook.newSecret(random: random)
        let sealed = try secrets.sealWebhookSecret(secret, id: id)
        let now = clock.now()
        let subscription = try await store.write { tx in
            let subscription = WebhookSubscription(
                id: id, url: url, events: types, secret: sealed, description: description.flatMap { $0.isEmpty ? nil : $0 }, createdAt: now,
                cursor: try await tx.latestAuditEventID())
            try await tx.insertWebhookSubscription(subscription)
            try await tx.audit(
                .webhookChanged, uid: nil, at: now,
                ["action": "created", "subscription": .string(id), "url": .string(url), "events": .array(types.map { .string($0.rawValue) })])
            return subscription
        }
        await store.announce(.webhooks)
        return Created(subscription: subscription, secret: secret)
    }

    /// The event types named by `names`, each once, in the order given.
    /// - Throws: `INVALID_ARGUMENT` when none is named or one is unknown.
    static func eventTypes(_ names: [String]) throws -> [WebhookEventType] {
        let known = WebhookEventType.all.map(\.rawValue).joined(separator: ", ")
        guard !names.isEmpty else { throw AuthError.invalidArgument("events must name at least one of \(known)") }
        var types: [WebhookEventType] = []
        for name in names {
            guard let type = WebhookEventType.all.first(where: { $0.rawValue == name }) else {
                throw AuthError.invalidArgument("unknown event type \(name); events are \(known)")
            }
            if !types.contains(type) { types.append(type) }
        }
        return types
    }

    /// Every subscription, oldest first.
    package func list() async throws -> [WebhookSubscription] {
        try await store.read { try await $0.webhookSubscriptions() }
    }

    /// Subscription `id`.
    /// - Throws: `NOT_FOUND` when there is none.
    package func subscription(_ id: String) async throws -> WebhookSubscription {
        guard let found = try await store.read({ try await $0.webhookSubscription(id: id) }) else { throw AuthError.notFound }
        return found
    }

    /// Removes subscription `id` and its deliveries.
    /// - Throws: `NOT_FOUND` when there is none.
    package func remove(_ id: String) async throws {
        let now = clock.now()
        let removed = try await store.write { tx in
            guard try await tx.deleteWebhookSubscription(id: id) else { return false }
            try await tx.audit(.webhookChanged, uid: nil, at: now, ["action": "removed", "subscription": .string(id)])
            return true
        }
        guard removed else { throw AuthError.notFound }
        await store.announce(.webhooks)
    }

    /// Turns subscription `id` on or off. A disabled subscription makes no delivery and records none of the events
    /// meanwhile (turned on again, it starts from the events recorded then); its deliveries already queued wait and
    /// resume.
    /// - Throws: `NOT_FOUND` when there is none.
    package func setEnabled(_ id: String, _ enabled: Bool) async throws -> WebhookSubscription {
        let now = clock.now()
        let updated = try await store.write { tx -> WebhookSubscription? in
            guard try await tx.setWebhookSubscription(id: id, enabled: enabled) else { return nil }
            if enabled { try await tx.advanceWebhookCursor(id: id, to: try await tx.latestAuditEventID()) }
            try await tx.audit(
                .webhookChanged, uid: nil, at: now, ["action": .string(enabled ? "enabled" : "disabled"), "subscription": .string(id)])
            return try await tx.webhookSubscription(id: id)
        }
        guard let updated else { throw AuthError.notFound }
        await store.announce(.webhooks)
        return updated
    }

    /// Deliveries newest first, of subscription `id` when given: a page of at most `limit` (up to ``maxPage``) before
    /// the sequence `before`.
    package func deliveries(of id: String?, before: Int64? = nil, limit: Int = 100) async throws -> [WebhookDelivery] {
        try await store.read { try await $0.webhookDeliveries(subscriptionID: id, before: before, limit: min(max(1, limit), Self.maxPage)) }
    }

    /// Queues delivery `sequence` again now, with a fresh round of attempts and its `webhook-id` and body unchanged.
    /// - Throws: `NOT_FOUND` when there is none.
    package func replay(_ sequence: Int64) async throws {
        let now = clock.now()
        let replayed = try await store.write { tx in
            guard let delivery = try await tx.webhookDelivery(sequence: sequence), try await tx.replayWebhookDelivery(sequence: sequence, now: now)
            else { return false }
            try await tx.audit(
                .webhookChanged, uid: nil, at: now,
                [
                    "action": "replayed", "subscription": .string(delivery.subscriptionID), "delivery": .number(Double(sequence)),
                    "webhookId": .string(delivery.webhookID),
                ])
            return true
        }
        guard replayed else { throw AuthError.notFound }
        await store.announce(.webhooks)
    }
}
