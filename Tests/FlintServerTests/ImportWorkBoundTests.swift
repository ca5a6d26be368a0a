import FlintCore
import FlintServerTestSupport
import FlintStore
import FlintTesting
import Foundation
import HTTPTypes
import Logging
import Testing

@testable import FlintServer

/// An imported hash's work factor is bounded: a bcrypt string above cost 14 is refused at import, and one stored
/// before imports refused it is never computed at sign-in (it would hold a hashing thread for weeks).
@Suite("Import: bcrypt cost is bounded at import and at sign-in")
struct ImportWorkBoundTests {
    /// bcrypt of "correct horse battery staple" at cost 4 (scripts/hash-vectors.py).
    static let cost4 = "$2b$04$abcdefghijklmnopqrstuu7EJV7kdjBBQxyb0HjTh9KS7.Lah/6CG"

    /// The same string with another cost.
    static func bcrypt(cost: Int) -> String {
        cost4.replacingOccurrences(of: "$04$", with: "$\(cost)$")
    }

    @Test("batchCreate refuses the users whose bcrypt cost is above 14, with their index, and imports the others")
    func importRefusesHighCost() async throws {
        try await withFlint { api in
            let users: [JSONValue] = [
                ["localId": "cheap", "email": "cheap@example.com", "passwordHash": .string(Base64.standard(Self.cost4))],
                ["localId": "cost15", "email": "cost15@example.com", "passwordHash": .string(Base64.standard(Self.bcrypt(cost: 15)))],
                ["localId": "cost31", "email": "cost31@example.com", "passwordHash": .string(Base64.standard(Self.bcrypt(cost: 31)))],
            ]
            let reply = try await api.batchCreate(users, ["hashAlgorithm": "BCRYPT"])
            #expect(reply.status == .ok, "\(reply.text)")
            #expect(reply.importErrors == [1: "bcrypt cost must be at most 14", 2: "bcrypt cost must be at most 14"], "\(reply.text)")
            #expect(try await api.adminLookup("cost15") == nil)
            #expect(try await api.adminLookup("cost31") == nil)
            #expect(try await api.signInWithPassword("cheap@example.com", "correct horse battery staple").status == .ok)
        }
    }

    // No time limit or timed expectation: under the full suite's load a test may wait a minute for its turn. A cost-31
    // hash computed would take weeks, so the answer arriving at all, with the refusal logged, is the proof.
    @Test("an account stored with a cost-31 bcrypt hash answers a sign-in as a wrong password, uncomputed, and logs the hash's kind only")
    func signInRefusesStoredHighCost() async throws {
        let lines = LogLines()
        let node = try await productionNode(
            sms: UnconfiguredSMSSender(), clock: ManualClock(Instant(Date())), logger: lines.logger(level: .warning))
        let hash = Self.bcrypt(cost: 31)
        var user = UserRecord(localID: "old-import", createdAt: Instant(Date()), validSince: 0)
        user.email = "old@example.com"
        user.passwordHash = ImportedPasswordHash(algorithm: .bcrypt, salt: [], hash: Array(hash.utf8)).stored
        try await node.store.write { [user] in try await $0.insertUser(user) }
        try await node.run { api in
            let reply = try await api.signInWithPassword("old@example.com", "correct horse battery staple")
            #expect(reply.errorCode == "INVALID_LOGIN_CREDENTIALS", "\(reply.text)")
        }
        let refused = lines.all.filter { $0.message.contains("refused without checking") }
        #expect(refused.count == 1)
        #expect(refused.first?.metadata == ["hashKind": "BCRYPT"])
        #expect(!lines.all.contains { $0.message.contains(hash) || $0.metadata.values.contains { $0.contains("$2b$") } })
    }
}

/// Standard base64 of a text's UTF-8 bytes, as `passwordHash` travels.
private enum Base64 {
    static func standard(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
}
