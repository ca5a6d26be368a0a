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
        activity.note(tenant: .default, localID: "u1", at: 5_000)
        let closed = try await SQLiteStore(path: nil, logger: logger)
        try await closed.close()
        await #expect(throws: (any Error).self) { try await activity.flush(to: closed) }

        let store = try await SQLiteStore(path: nil, logger: logger)
        try await store.write { try await $0.insertUser(UserRecord(localID: "u1", createdAt: 1, validSince: 0)) }
        activity.note(tenant: .default, localID: "u1", at: 4_000)
        try await activity.flush(to: store)
        #expect(try await store.read { try await $0.user(tenant: .default, localID: "u1") }?.lastRefreshAt == 5_000, "the newer time wins")
        try await store.close()
    }

    @Test("a refresh time is written to the account of its tenant, not to another tenant's account with the same ID")
    func perTenant() async throws {
        let store = try await SQLiteStore(path: nil, logger: Logger(label: "flint-test"))
        let tenant = TenantID(rawValue: "acme-1a2b3")
        try await store.write { tx in
            try await tx.insertUser(UserRecord(localID: "u1", createdAt: 1, validSince: 0))
            try await tx.insertUser(UserRecord(tenant: tenant, localID: "u1", createdAt: 1, validSince: 0))
        }
        let activity = RefreshActivity()
        activity.note(tenant: tenant, localID: "u1", at: 7_000)
        try await activity.flush(to: store)
        #expect(try await store.read { try await $0.user(tenant: tenant, localID: "u1") }?.lastRefreshAt == 7_000)
        #expect(try await store.read { try await $0.user(tenant: .default, localID: "u1") }?.lastRefreshAt == nil)
        try await store.close()
    }
}
