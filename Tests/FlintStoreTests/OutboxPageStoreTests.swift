import FlintCore
import FlintStore
import FlintTesting
import Testing

@Suite("Outbox listing: newest first, filtered, in keyset pages")
struct OutboxPageStoreTests {
    /// A message to `to` on `channel` with `status`, at `at` (ms).
    static func message(_ channel: OutboxChannel, _ to: String, _ status: OutboxStatus, at: Instant) -> OutboxMessage {
        var message = OutboxMessage(channel: channel, recipient: to, body: "b", locale: "en", createdAt: at)
        message.status = status
        if channel == .email { message.email = .init(subject: "s", html: "h", link: "l", requestType: .emailSignIn) }
        return message
    }

    @Test("newest first; channel, status and recipient filters; keyset pages", arguments: Engine.all)
    func pages(engine: Engine) async throws {
        let (store, _) = try await makeStore(engine)
        try await store.write { tx in
            for i in 0..<1_005 {
                let (channel, to) = i % 2 == 0 ? (OutboxChannel.sms, "+16505550\(100 + i % 10)") : (.email, "u\(i % 3)@example.com")
                try await tx.appendOutbox(Self.message(channel, to, i % 5 == 0 ? .failed : .sent, at: Instant(millisecondsSince1970: Int64(i))))
            }
        }
        let newest = try await store.read { try await $0.outbox(OutboxFilter(), before: nil, limit: 3) }
        #expect(newest.map(\.createdAt.millisecondsSince1970) == [1_004, 1_003, 1_002])
        let next = try await store.read { try await $0.outbox(OutboxFilter(), before: newest.last?.sequence, limit: 2) }
        #expect(next.map(\.createdAt.millisecondsSince1970) == [1_001, 1_000])

        let failedTexts = try await store.read { try await $0.outbox(OutboxFilter(channel: .sms, status: .failed), before: nil, limit: 3) }
        #expect(failedTexts.map(\.createdAt.millisecondsSince1970) == [1_000, 990, 980])
        let toOne = OutboxFilter(recipient: "+16505550104")
        let first = try await store.read { try await $0.outbox(toOne, before: nil, limit: 2) }
        #expect(first.map(\.createdAt.millisecondsSince1970) == [1_004, 994])
        let second = try await store.read { try await $0.outbox(toOne, before: first.last?.sequence, limit: 2) }
        #expect(second.map(\.createdAt.millisecondsSince1970) == [984, 974])
        let emails = try await store.read {
            try await $0.outbox(OutboxFilter(channel: .email, status: .sent, recipient: "u1@example.com"), before: nil, limit: 2)
        }
        #expect(emails.map(\.createdAt.millisecondsSince1970) == [1_003, 997])
        #expect(emails.allSatisfy { $0.email?.link == "l" })
        #expect(try await store.read { try await $0.outbox(OutboxFilter(recipient: "nobody@example.com"), before: nil, limit: 5) }.isEmpty)
        try await store.close()
    }
}
