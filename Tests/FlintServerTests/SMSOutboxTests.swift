import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Testing

@testable import FlintServer

/// Production settings with app verification off, so a send reaches the SMS step.
private func production(_ settings: inout ServerSettings) {
    settings.devMode = false
    settings.adminToken = "admin"
    settings.configDocument = ["signIn": .object(["phoneNumber": .object(["enabled": .bool(true), "appVerification": .string("OFF")])])]
}

extension API {
    /// The delivery log behind the admin credential.
    func adminOutbox(token: String) async throws -> [JSONValue] {
        let reply = try await call(.get, "/flint/v1/projects/\(project)/outbox", headers: [.authorization: "Bearer \(token)"])
        #expect(reply.status == .ok, "\(reply.text)")
        guard case .array(let list)? = reply["messages"] else { return [] }
        return list
    }
}

@Suite("SMS outbox: redaction, retention, hand-over state")
struct SMSOutboxTests {
    @Test("in production a text handed over keeps neither code nor body in the outbox, only metadata")
    func redactedAfterHandOver() async throws {
        let sender = FlakySender(failures: 0)
        let node = try await TestNode.make(sms: sender, configure: production)
        try await node.run { api in
            let sessionInfo = try await api.sendCode(alice)
            let code = try #require(sender.sent.first?.code)
            let log = try await api.adminOutbox(token: "admin")
            #expect(log.count == 1)
            #expect(log.first?["channel"]?.stringValue == "sms" && log.first?["to"]?.stringValue == alice)
            #expect(log.first?["status"]?.stringValue == "sent")
            #expect(log.first?["body"]?.stringValue == "", "the text is gone")
            let stored = try await node.store.read { try await $0.outbox(limit: 10) }
            #expect(stored.first?.code == nil && stored.first?.body.isEmpty == true)
            #expect(try await api.verify(sessionInfo, code: code).status == .ok, "the code still works")
        }
    }

    @Test("in production a failed hand-over leaves a failed record without code or body")
    func redactedAfterFailure() async throws {
        let node = try await TestNode.make(sms: FlakySender(failures: 1), configure: production)
        try await node.run { api in
            #expect(try await api.post(Path.send, ["phoneNumber": alice]).errorCode == "INTERNAL_ERROR")
            let stored = try await node.store.read { try await $0.outbox(limit: 10) }
            #expect(stored.map(\.status) == [.failed])
            #expect(stored.first?.code == nil && stored.first?.body.isEmpty == true)
        }
    }

    @Test("the retention sweep removes finished records after the retention period")
    func retentionSweep() async throws {
        let node = try await TestNode.make(sms: FlakySender(failures: 0)) {
            production(&$0)
            $0.outboxRetention = .seconds(86_400)
        }
        try await node.run { api in
            _ = try await api.sendCode(alice)
            try await ReloadService(flows: node.server.flows, modules: node.server.modules).sweep()
            #expect(try await api.adminOutbox(token: "admin").count == 1, "kept within the retention period")
            api.clock.advance(by: .seconds(86_401))
            try await ReloadService(flows: node.server.flows, modules: node.server.modules).sweep()
            #expect(try await api.adminOutbox(token: "admin").isEmpty)
        }
    }

    @Test("a session whose hand-over was never reported (its abandonment failed) does not leave the number without codes")
    func unreportedHandOver() async throws {
        let sender = FlakySender(failures: 0)
        let node = try await TestNode.make(sms: sender)
        try await node.run { api in
            // What a send leaves when the hand-over failed and abandoning the session failed too: a live session and
            // its record still `sending`.
            let now = api.clock.now()
            let stuck = CodeSession(
                id: "00112233445566778899aabbccddeeff", phoneNumber: alice, purpose: .signIn, codeHash: "00", createdAt: now,
                expiresAt: now + .seconds(300))
            var record = OutboxMessage(
                channel: .sms, recipient: alice, body: "lost", locale: "en", createdAt: now, code: "000000", sessionID: stuck.id)
            record.status = .sending
            try await node.store.write { [record] tx in
                _ = try await tx.startCodeSession(stuck, maxAttempts: 5)
                try await tx.appendOutbox(record)
            }
            let sessionInfo = try await api.sendCode(alice)
            #expect(sender.sent.count == 1, "a new text was handed over")
            let code = try #require(sender.sent.first?.code)
            #expect(try await api.verify(sessionInfo, code: code).status == .ok)
        }
    }
}
