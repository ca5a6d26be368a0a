import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import Logging
import Testing

@testable import FlintServer

@Suite("Refresh times")
struct RefreshActivityTests {
    @Test("refresh times that could not be written are kept for the next flush")
    func keptAfterFailure() async throws {
        let logger = Logger(label: "flint-test")
        let activity = RefreshActivity()
        activity.note(localID: "u1", at: 5_000)
        let closed = try await SQLiteStore(path: nil, logger: logger)
        try await closed.close()
        await #expect(throws: (any Error).self) { try await activity.flush(to: closed) }

        let store = try await SQLiteStore(path: nil, logger: logger)
        try await store.write { try await $0.insertUser(UserRecord(localID: "u1", createdAt: 1, validSince: 0)) }
        activity.note(localID: "u1", at: 4_000)
        try await activity.flush(to: store)
        #expect(try await store.read { try await $0.user(tenant: .default, localID: "u1") }?.lastRefreshAt == 5_000, "the newer time wins")
        try await store.close()
    }
}
