import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// Runs `body` with a receiver listening and a fresh node (dev mode, so the receiver's http URL is accepted).
private func withReceiver(
    _ configure: @escaping @Sendable (inout ServerSettings) -> Void = { _ in },
    _ body: @escaping @Sendable (TestNode, API, WebhookReceiver) async throws -> Void
) async throws {
    let receiver = WebhookReceiver()
    try await receiver.serve {
        let node = try await TestNode.make(configure: configure)
        try await node.run { api in try await body(node, api, receiver) }
    }
}

extension TestNode {
    /// Runs a dispatcher round, then waits (by the node's writes) until no delivery is due or being sent: the node's
    /// own ``WebhookService`` runs rounds too, woken by the same writes, and a claim it holds ends with its write.
    func deliverWebhooks(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        await server.flows.webhooks.runOnce()
        let settled = try await afterWrites {
            let now = clock.now()
            return try await store.read { try await $0.webhookDeliveries(subscriptionID: nil, before: nil, limit: 500) }
                .allSatisfy { $0.status == .delivered || $0.status == .failed || ($0.status == .pending && $0.nextAttemptAt > now) }
        }
        #expect(settled, sourceLocation: sourceLocation)
    }
}

@Suite("Event webhooks")
struct WebhooksTests {
    @Test("a sign-up is delivered as user.created and user.signed_in, signed per Standard Webhooks, with no secret in the body")
    func signedDelivery() async throws {
        try await withReceiver { node, api, receiver in
            let hook = try await api.subscribe(receiver.url, ["user.created", "user.signed_in", "user.deleted"])
            #expect(hook.secret.hasPrefix("whsec_") && (Data(base64Encoded: String(hook.secret.dropFirst(6)))?.count ?? 0) >= 24)
            let user = try await api.signUp("ada@example.com", "correct horse battery")
            try await node.deliverWebhooks()
            let received = receiver.received
            #expect(received.compactMap(\.type).sorted() == ["user.created", "user.signed_in"])
            for request in received {
                #expect(request.verifies(with: hook.secret), "the signature computed independently matches")
                #expect(request.id.hasPrefix("msg_") && Int64(request.timestamp) == node.clock.now().secondsSince1970)
                #expect(request.json["data"]?["uid"]?.stringValue == user.localId)
                #expect(request.json["timestamp"]?.stringValue?.hasSuffix("Z") == true)
                let text = String(decoding: request.body, as: UTF8.self)
                #expect(!text.contains("correct horse") && !text.contains(user.idToken) && !text.contains(user.refreshToken))
            }
            #expect(Set(received.map(\.id)).count == 2)
            #expect(received.first { $0.type == "user.signed_in" }?.json["data"]?["method"] == "password")
            let listed = try await api.deliveries(hook.id)
            #expect(listed.map { $0["status"]?.stringValue } == ["delivered", "delivered"])
            #expect(listed.compactMap { $0["webhookId"]?.stringValue }.sorted() == received.map(\.id).sorted())
            let audited = try await api.auditEvents("kind=WEBHOOK_DELIVERED")
            #expect(audited.count == 2 && audited.first?["detail"]?["subscription"]?.stringValue == hook.id)
            // The webhooks' own audit events make no deliveries.
            try await node.deliverWebhooks()
            #expect(receiver.received.count == 2)
        }
    }

    @Test("a receiver that fails then recovers loses nothing: the retry, after the backoff, carries the same webhook-id")
    func failThenRecover() async throws {
        try await withReceiver { node, api, receiver in
            receiver.answer { $0 < 2 ? .internalServerError : .ok }
            let hook = try await api.subscribe(receiver.url, ["user.deleted"])
            let uid = try await api.adminCreate(["email": "gone@example.com"])
            #expect(try await api.admin("\(Path.operatorV1)/accounts:delete", ["localId": .string(uid)]).status == .ok)
            try await node.deliverWebhooks()
            #expect(receiver.received.count == 1)
            var listed = try await api.deliveries(hook.id)
            #expect(listed.first?["status"] == "pending" && listed.first?["lastError"] == "HTTP 500" && listed.first?["attempts"] == .number(1))
            try await node.deliverWebhooks()
            #expect(receiver.received.count == 1, "nothing is sent again before the backoff")
            node.clock.advance(by: .seconds(6))
            try await node.deliverWebhooks()
            #expect(receiver.received.count == 2)
            node.clock.advance(by: .seconds(24))
            try await node.deliverWebhooks()
            #expect(receiver.received.count == 2, "the second pause is at least 24 s")
            node.clock.advance(by: .seconds(12))
            try await node.deliverWebhooks()
            let received = receiver.received
            #expect(received.count == 3)
            #expect(Set(received.map(\.id)).count == 1, "every attempt of the event carries one webhook-id")
            #expect(received.allSatisfy { $0.verifies(with: hook.secret) && $0.json["data"]?["uid"]?.stringValue == uid })
            listed = try await api.deliveries(hook.id)
            #expect(listed.count == 1 && listed.first?["status"] == "delivered" && listed.first?["attempts"] == .number(3))
            let failures = try await api.auditEvents("kind=WEBHOOK_FAILED")
            #expect(failures.count == 2 && failures.allSatisfy { $0["detail"]?["final"] == false && $0["detail"]?["error"] == "HTTP 500" })
        }
    }

    @Test("a delivery whose node died between sending and recording it is sent again, with the same webhook-id, once its lease ran out")
    func leaseRunsOut() async throws {
        let receiver = WebhookReceiver()
        try await receiver.serve {
            // A node whose services do not run: this test alone claims and delivers.
            let node = try await TestNode.make()
            let dispatcher = node.server.flows.webhooks
            let hook = try await node.server.flows.webhookSubscriptions.create(url: receiver.url, events: ["user.created"], description: nil)
            let now = node.clock.now()
            try await node.store.write { try await $0.appendAuditEvent(AuditEvent(at: now, kind: .accountCreated, uid: "u1")) }
            try await dispatcher.enqueueNewEvents()
            let sequence = try #require(try await node.store.read { try await $0.dueWebhookDeliveries(now: now, limit: 10) }.first)
            let claimed = try #require(
                try await node.store.write {
                    try await $0.claimWebhookDelivery(sequence: sequence, now: now, leaseUntil: now + WebhookDispatcher.lease)
                })
            // The crashed node's attempt reached the receiver; its outcome was never recorded.
            _ = await dispatcher.send(claimed, to: hook.subscription)
            await dispatcher.runOnce()
            #expect(receiver.received.count == 1, "the lease holds")
            node.clock.advance(by: WebhookDispatcher.lease + .seconds(1))
            await dispatcher.runOnce()
            #expect(receiver.received.count == 2 && Set(receiver.received.map(\.id)).count == 1)
            #expect(receiver.received.allSatisfy { $0.verifies(with: hook.secret) })
            let delivery = try await node.store.read { try await $0.webhookDelivery(sequence: sequence) }
            #expect(delivery?.status == .delivered && delivery?.attempts == 2)
            try await node.store.close()
        }
    }

    @Test("a disabled subscription delivers nothing and records nothing meanwhile; enabled again, it starts from then")
    func disabled() async throws {
        try await withReceiver { node, api, receiver in
            let hook = try await api.subscribe(receiver.url, ["user.created", "user.disabled", "user.enabled"])
            let off = try await api.admin(.patch, "\(Path.webhooks)/\(hook.id)", body: #"{"enabled":false}"#)
            #expect(off.status == .ok && off["enabled"] == false)
            let uid = try await api.adminCreate(["email": "quiet@example.com"])
            try await node.deliverWebhooks()
            #expect(receiver.received.isEmpty)
            #expect(try await api.deliveries(hook.id).isEmpty)
            #expect(try await api.admin(.patch, "\(Path.webhooks)/\(hook.id)", body: #"{"enabled":true}"#)["enabled"] == true)
            #expect(try await api.admin(Path.adminUpdate, ["localId": .string(uid), "disableUser": true]).status == .ok)
            try await node.deliverWebhooks()
            #expect(receiver.received.map(\.type) == ["user.disabled"])
            #expect(
                try await api.auditEvents("kind=WEBHOOK_CHANGED").compactMap { $0["detail"]?["action"]?.stringValue } == [
                    "enabled", "disabled", "created",
                ])
        }
    }

    @Test("a replay sends a delivered event again with its webhook-id and body, and is audited")
    func replay() async throws {
        try await withReceiver { node, api, receiver in
            let hook = try await api.subscribe(receiver.url, ["user.created"])
            _ = try await api.adminCreate(["email": "again@example.com"])
            try await node.deliverWebhooks()
            let id = try #require(try await api.deliveries(hook.id).first?["id"]?.stringValue)
            let replayed = try await api.admin(Path.replayWebhook, ["delivery": .string(id)])
            #expect(replayed.status == .ok, "\(replayed.text)")
            try await node.deliverWebhooks()
            let received = receiver.received
            #expect(received.count == 2 && received[0].id == received[1].id && received[0].body == received[1].body)
            #expect(received.allSatisfy { $0.verifies(with: hook.secret) })
            #expect(try await api.auditEvents("kind=WEBHOOK_CHANGED").first?["detail"]?["action"] == "replayed")
            let again = try await api.deliveries(hook.id)
            #expect(again.count == 1 && again.first?["status"] == "delivered" && again.first?["attempts"] == .number(1), "a fresh round")
        }
    }

    @Test("two nodes sharing one store deliver each event once")
    func twoNodes() async throws {
        let path = temporaryDatabasePath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let receiver = WebhookReceiver()
        try await receiver.serve {
            // One log of both nodes' writes: the last delivery may be either node's service's.
            let writes = EventLog<Void>()
            let first = try await TestNode.make(path: path, writes: writes)
            let second = try await TestNode.make(path: path, writes: writes)
            try await first.run { api in
                _ = try await api.subscribe(receiver.url, ["user.created"])
                for n in 0..<12 { _ = try await api.adminCreate(["email": .string("user\(n)@example.com")]) }
                try await second.run { _ in
                    // Both nodes' rounds at once (besides their services'), then until nothing is left to send.
                    await withTaskGroup(of: Void.self) { group in
                        for node in [first, second, first, second] { group.addTask { await node.server.flows.webhooks.runOnce() } }
                    }
                    try await first.deliverWebhooks()
                }
            }
        }
        let received = receiver.received
        #expect(received.count == 12)
        #expect(Set(received.map(\.id)).count == 12, "each event once, whichever node sent it")
    }

    @Test(
        "the admin API refuses in Firebase's error format",
        arguments: [
            ("POST", "", #"{"url":"ftp://example.com","events":["user.created"]}"#, 400, "INVALID_ARGUMENT"),
            ("POST", "", #"{"url":"https://example.com/hook","events":["user.exploded"]}"#, 400, "INVALID_ARGUMENT"),
            ("POST", "", #"{"url":"https://example.com/hook","events":[]}"#, 400, "INVALID_ARGUMENT"),
            ("POST", "", #"{"events":["user.created"]}"#, 400, "INVALID_ARGUMENT"),
            ("GET", "/wh_missing", nil, 404, "Not Found"),
            ("PATCH", "/wh_missing", #"{"enabled":false}"#, 404, "Not Found"),
            ("DELETE", "/wh_missing", nil, 404, "Not Found"),
            ("GET", "/wh_missing/deliveries", nil, 404, "Not Found"),
        ] as [(String, String, String?, Int, String)])
    func adminErrors(method: String, suffix: String, body: String?, status: Int, code: String) async throws {
        try await withFlint { api in
            let reply = try await api.admin(.init(method)!, Path.webhooks + suffix, body: body)
            #expect(reply.status.code == status, "\(reply.text)")
            #expect(reply.errorCode == code && reply.json["error"]?["code"] == .number(Double(status)), "\(reply.text)")
        }
    }

    @Test("the admin API: operators only, this project only, list and delete, replay of no delivery, a bad page token")
    func adminAPI() async throws {
        try await withFlint { api in
            let anonymous = try await api.call(.get, Path.webhooks)
            #expect(anonymous.status.code == 401 || anonymous.status.code == 403, "\(anonymous.text)")
            let other = try await api.admin(.get, "/flint/v1/projects/other-project/webhooks")
            #expect(other.errorCode == "PROJECT_NOT_FOUND")
            let hook = try await api.subscribe("https://hooks.example.com/in", ["user.created", "user.created", "email.changed"])
            let listed = try await api.admin(.get, Path.webhooks)
            #expect(listed["webhooks"]?.arrayValue?.count == 1)
            let shown = try await api.admin(.get, "\(Path.webhooks)/\(hook.id)")
            #expect(shown["events"] == ["user.created", "email.changed"] && shown["secret"] == nil && shown["url"] == "https://hooks.example.com/in")
            #expect(!listed.text.contains(hook.secret) && !shown.text.contains(hook.secret), "the secret is shown once")
            #expect(try await api.admin(.get, "\(Path.webhooks)/\(hook.id)/deliveries?pageToken=zz").errorCode == "INVALID_PAGE_SELECTION")
            #expect(try await api.admin(.get, "\(Path.webhooks)/\(hook.id)/deliveries?pageSize=0").errorCode == "INVALID_ARGUMENT")
            #expect(try await api.admin(Path.replayWebhook, ["delivery": "424242"]).errorCode == "Not Found")
            #expect(try await api.admin(Path.replayWebhook, ["delivery": "x"]).errorCode == "INVALID_ARGUMENT")
            #expect(try await api.admin(.delete, "\(Path.webhooks)/\(hook.id)").status == .ok)
            #expect(try await api.admin(.get, Path.webhooks)["webhooks"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test("outside dev mode a subscription needs https; its secret is sealed with the master key and deliveries still sign with it")
    func productionSecrets() async throws {
        let key = MasterKey.generate()
        try await withReceiver({ settings in settings.masterKey = key }) { node, api, receiver in
            let hook = try await api.subscribe(receiver.url, ["password.changed"])
            let stored = try #require(try await node.store.read { try await $0.webhookSubscription(id: hook.id) })
            #expect(SealedSecret.isSealed(stored.secret) && !stored.secret.contains(hook.secret))
            let user = try await api.signUp("pw@example.com", "correct horse battery")
            let changed = try await api.post(Path.v1 + "/accounts:update", ["idToken": user.idToken, "password": "another horse battery"])
            #expect(changed.status == .ok, "\(changed.text)")
            try await node.deliverWebhooks()
            #expect(receiver.received.map(\.type) == ["password.changed"])
            #expect(receiver.received.first?.verifies(with: hook.secret) == true)
            #expect(receiver.received.first?.json["data"]?["removed"] == false)
        }
        let node = try await TestNode.make()
        let production = WebhookSubscriptions(store: node.store, masterKey: nil, allowsHTTP: false, clock: node.clock)
        await #expect(throws: AuthError.invalidArgument("url must be an absolute https URL")) {
            try await production.create(url: "http://hooks.example.com/in", events: ["user.created"], description: nil)
        }
        try await node.store.close()
    }

    @Test("with no subscription, writes do not wake the dispatcher and nothing is queued")
    func idleCostsNothing() async throws {
        try await withReceiver { node, api, receiver in
            _ = try await api.signUp("idle@example.com", "correct horse battery")
            try await node.deliverWebhooks()
            #expect(node.server.flows.webhooks.wake.isActive == false)
            #expect(try await node.store.read { try await $0.webhookDeliveries(subscriptionID: nil, before: nil, limit: 10) }.isEmpty)
            _ = try await api.subscribe(receiver.url, ["user.signed_in"])
            try await node.deliverWebhooks()
            #expect(node.server.flows.webhooks.wake.isActive)
        }
    }
}

@Suite("Event webhooks: which audit events are which webhook events")
struct WebhookEventsTests {
    static let at = Instant(millisecondsSince1970: 1_767_225_600_000)

    @Test(
        "each audit kind maps to its webhook types, with its non-secret facts",
        arguments: [
            (AuditKind.signIn, ["method": "password", "newUser": true, "result": "TOKENS"], ["user.created", "user.signed_in"]),
            (.signIn, ["method": "phone", "newUser": false, "result": "TOKENS"], ["user.signed_in"]),
            (.signIn, ["method": "phone", "newUser": false, "result": "SECOND_FACTOR_REQUIRED"], []),
            (.accountCreated, [:], ["user.created"]),
            (.accountDeleted, [:], ["user.deleted"]),
            (.accountDisabled, [:], ["user.disabled"]),
            (.accountEnabled, [:], ["user.enabled"]),
            (.mfaEnrolled, ["factor": "totp", "enrollmentId": "e1"], ["mfa.enrolled"]),
            (.passwordChanged, ["removed": false], ["password.changed"]),
            (.passwordReset, [:], ["password.changed"]),
            (.emailChanged, ["from": "a@example.com", "to": "b@example.com"], ["email.changed"]),
            (.emailRecovered, ["email": "a@example.com"], ["email.changed"]),
            (.webhookDelivered, [:], []), (.webhookFailed, [:], []), (.webhookChanged, [:], []), (.adminAction, [:], []),
        ] as [(AuditKind, [String: JSONValue], [String])])
    func mapping(kind: AuditKind, detail: [String: JSONValue], types: [String]) {
        let event = AuditEvent(id: 7, at: Self.at, kind: kind, uid: "u1", ip: "192.0.2.1", actor: "admin", detail: detail)
        #expect(WebhookEvents.types(of: event, subscribed: WebhookEventType.all).map(\.rawValue) == types)
        for type in WebhookEvents.types(of: event, subscribed: WebhookEventType.all) {
            let body = (try? JSONValue(parsing: Array(WebhookEvents.payload(type, event: event).utf8))) ?? .null
            #expect(body["type"]?.stringValue == type.rawValue && body["timestamp"] == "2026-01-01T00:00:00.000Z" && body["data"]?["uid"] == "u1")
            #expect(body["data"]?["ip"] == nil && body["data"]?["result"] == nil, "only the event's facts")
        }
        #expect(WebhookEvents.types(of: event, subscribed: []).isEmpty)
    }

    @Test("an email change says both addresses; a recovery says it was one; a reset says so; an enrolment its factor")
    func facts() {
        func data(_ kind: AuditKind, _ detail: [String: JSONValue], _ type: WebhookEventType) -> JSONValue? {
            let body = WebhookEvents.payload(type, event: AuditEvent(id: 1, at: Self.at, kind: kind, uid: "u1", detail: detail))
            return (try? JSONValue(parsing: Array(body.utf8)))?["data"]
        }
        #expect(
            data(.emailChanged, ["from": "a@example.com", "to": "b@example.com"], .emailChanged) == [
                "uid": "u1", "from": "a@example.com", "to": "b@example.com",
            ])
        #expect(data(.emailRecovered, ["email": "a@example.com"], .emailChanged) == ["uid": "u1", "to": "a@example.com", "recovered": true])
        #expect(data(.passwordReset, [:], .passwordChanged) == ["uid": "u1", "reset": true])
        #expect(data(.mfaEnrolled, ["factor": "totp", "enrollmentId": "e1"], .mfaEnrolled) == ["uid": "u1", "factor": "totp", "enrollmentId": "e1"])
    }

    @Test("a webhook-id is stable for one subscription, event and type, and differs otherwise")
    func webhookIDs() {
        let id = WebhookEvents.webhookID(subscription: "wh_a", auditID: 1, type: .userCreated)
        #expect(id == WebhookEvents.webhookID(subscription: "wh_a", auditID: 1, type: .userCreated) && id.hasPrefix("msg_"))
        let others = [
            WebhookEvents.webhookID(subscription: "wh_b", auditID: 1, type: .userCreated),
            WebhookEvents.webhookID(subscription: "wh_a", auditID: 2, type: .userCreated),
            WebhookEvents.webhookID(subscription: "wh_a", auditID: 1, type: .userSignedIn),
        ]
        #expect(Set(others + [id]).count == 4)
    }
}

@Suite("Event webhooks: the node's service")
struct WebhookServiceTests {
    @Test("the node's service delivers on its own, woken by the write that recorded the event (not by its hourly round)")
    func wokenByWrites() async throws {
        let receiver = WebhookReceiver()
        try await receiver.serve {
            let node = try await TestNode.make { $0.reloadInterval = .seconds(3600) }
            try await node.run { api in
                let hook = try await api.subscribe(receiver.url, ["user.created"])
                _ = try await api.adminCreate(["email": "woken@example.com"])
                let delivered = try await node.afterWrites {
                    try await node.store.read { try await $0.webhookDeliveries(subscriptionID: hook.id, before: nil, limit: 1) }.first?.status
                        == .delivered
                }
                #expect(delivered)
                #expect(receiver.received.count == 1 && receiver.received.first?.verifies(with: hook.secret) == true)
            }
        }
    }
}
