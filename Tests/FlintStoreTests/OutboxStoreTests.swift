import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("Outbox storage: retention and text hand-over state")
struct OutboxStoreTests {
    static func text(_ session: String, status: OutboxStatus, at createdAt: Instant) -> OutboxMessage {
        var message = OutboxMessage(
            channel: .sms, recipient: "+16505553434", body: "123456 is your code", locale: "en", createdAt: createdAt, code: "123456",
            sessionID: session)
        message.status = status
        return message
    }

    @Test("the retention sweep deletes old records that are done with, and keeps the rest", arguments: Engine.all)
    func retention(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        var queuedEmail = OutboxMessage(channel: .email, recipient: "a@example.com", body: "b", locale: "en", createdAt: 10)
        queuedEmail.email = .init(subject: "s", html: "h", link: "l", requestType: .emailSignIn)
        queuedEmail.status = .queued
        try await store.write { [queuedEmail] tx in
            for (id, status) in [
                ("sent", OutboxStatus.sent), ("failed", OutboxStatus.failed), ("stuck", OutboxStatus.sending), ("dev", OutboxStatus.dev),
            ] {
                try await tx.appendOutbox(Self.text(id, status: status, at: 10))
            }
            try await tx.appendOutbox(queuedEmail)
            try await tx.appendOutbox(Self.text("recent", status: .sent, at: 5_000))
        }
        #expect(try await store.write { try await $0.deleteOutbox(finishedBefore: 1_000) } == 3)
        let left = try await store.read { try await $0.outbox(limit: 100) }
        #expect(left.map(\.status) == [.dev, .queued, .sent])
        #expect(left.last?.sessionID == "recent", "records newer than the cutoff stay")
        try await store.close()
    }

    @Test("a finished text keeps metadata only once redacted", arguments: Engine.all)
    func redaction(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let seq = try await store.write { try await $0.appendOutbox(Self.text("s1", status: .sending, at: 10)) }
        try await store.write { try await $0.finishOutbox(sequence: seq, status: .sent, detail: nil, redact: true) }
        let record = try #require(try await store.read { try await $0.outbox(limit: 10) }.first)
        #expect(record.code == nil && record.body.isEmpty)
        #expect(record.status == .sent && record.recipient == "+16505553434" && record.channel == .sms && record.createdAt == 10)
        try await store.close()
    }

    @Test("a live session whose text was never reported handed over is replaced, not re-used", arguments: Engine.all)
    func unsentSessionIsReplaced(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            _ = try await tx.startCodeSession(session("stuck"), maxAttempts: 5)
            try await tx.appendOutbox(Self.text("stuck", status: .sending, at: 1_000_000))
        }
        let next = try await store.write { try await $0.startCodeSession(session("next", now: 1_000_010), maxAttempts: 5) }
        #expect(!next.reused && next.session.id == "next")

        let seq = try await store.write { try await $0.appendOutbox(Self.text("next", status: .sending, at: 1_000_010)) }
        try await store.write { try await $0.finishOutbox(sequence: seq, status: .sent, detail: nil, redact: true) }
        let again = try await store.write { try await $0.startCodeSession(session("again", now: 1_000_020), maxAttempts: 5) }
        #expect(again.reused && again.session.id == "next", "a handed-over code is re-used")
        try await store.close()
    }

    @Test(
        "a code's text appended with its session, riding on the counters that follow, is finished by its session",
        arguments: Engine.all)
    func codeTextBySession(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        let hits = try await store.write { tx in
            _ = try await tx.startCodeSession(session("s1"), maxAttempts: 5)
            try await tx.appendCodeText(Self.text("s1", status: .sending, at: 1_000_000))
            return try await tx.incrementCounters([(key: "sms-sent:h:+16505553434", windowStart: 0, expiresAt: 3_600_000)])
        }
        #expect(hits == [1])
        try await store.write { try await $0.finishCodeText(sessionID: "s1", status: .failed, detail: "refused", redact: true) }
        let record = try #require(try await store.read { try await $0.outbox(limit: 10) }.first)
        #expect(record.sessionID == "s1" && record.status == .failed && record.statusDetail == "refused")
        #expect(record.code == nil && record.body.isEmpty)

        // A send refused past a limit keeps nothing: not the session, not its text, not the hit.
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await store.write { tx in
                _ = try await tx.startCodeSession(session("s2", now: 1_000_100), maxAttempts: 5)
                try await tx.appendCodeText(Self.text("s2", status: .sending, at: 1_000_100))
                _ = try await tx.incrementCounters([(key: "sms-sent:h:+16505553434", windowStart: 0, expiresAt: 3_600_000)])
                throw Refused()
            }
        }
        #expect(try await store.read { try await $0.outbox(limit: 10) }.count == 1)
        #expect(try await store.read { try await $0.codeSession(id: "s2") } == nil)
        #expect(
            try await store.read { try await $0.counterValue(key: .number(tenant: .default, "+16505553434", .sends(per: .hour)), windowStart: 0) }
                == 1)
        try await store.close()
    }
}
