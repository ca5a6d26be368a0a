import FlintCore
import FlintStore
import FlintTesting
import Foundation
import Logging
import Testing

@Suite("PostgreSQL connections", .enabled(if: Engine.all.contains(.postgres)))
struct PostgresTLSTests {
    @Test("sslmode=require connects over TLS to a server that accepts nothing else, and sslmode=disable is refused")
    func tls() async throws {
        let (store, url) = try await makeStore(.postgres)
        #expect(url.contains("sslmode=require"))
        try await store.write {
            try await $0.insertUser(UserRecord(localID: "u1", phoneNumber: "+16505553434", createdAt: 1, validSince: Instant(secondsSince1970: 1)))
        }
        #expect(try await store.read { try await $0.userCount(tenant: .default) } == 1)
        try await store.close()

        let plain = url.replacingOccurrences(of: "sslmode=require", with: "sslmode=disable")
        // Refused within the store's own start limit (the product's rule), not the tests' longer wait.
        let plainLocation = try #require(PostgresStore.Location(url: plain))
        await #expect(throws: PostgresStore.StartError.self) { _ = try await PostgresStore(location: plainLocation, logger: testLogger()) }
    }

    @Test(
        "URLs are read as libpq reads them",
        arguments: [
            ("postgres://u:p%40ss@db.example:6543/flint?sslmode=verify-full", "db.example", 6543, "u", "p@ss", "flint", "verify-full"),
            ("postgresql://u@localhost/flint", "localhost", 5432, "u", nil, "flint", "prefer"),
            ("postgres://u@/flint?host=/run/postgresql", "/run/postgresql", 5432, "u", nil, "flint", "prefer"),
            ("postgres://u:pw@db.example:5433/flint?host=/tmp/pg&sslmode=disable", "/tmp/pg", 5433, "u", "pw", "flint", "disable"),
        ] as [(String, String, Int, String, String?, String, String)])
    func parsing(_ c: (String, String, Int, String, String?, String, String)) throws {
        let l = try #require(PostgresStore.Location(url: c.0))
        #expect(l.host == c.1)
        #expect(l.port == c.2)
        #expect(l.user == c.3)
        #expect(l.password == c.4)
        #expect(l.database == c.5)
        #expect(l.sslMode == c.6)
        #expect(l.socketDirectory == (c.1.hasPrefix("/") ? c.1 : nil))
    }

    @Test("a host that is a directory reaches the server through its Unix-domain socket, without TCP or TLS")
    func unixSocket() async throws {
        // The test server (scripts/postgres) keeps its socket in its root directory and lets local clients in.
        let root = try #require(ProcessInfo.processInfo.environment["FLINT_TEST_PGROOT"], "scripts/postgres start exports FLINT_TEST_PGROOT")
        let baseURL = try #require(ProcessInfo.processInfo.environment["FLINT_TEST_POSTGRES_URL"])
        let base = try #require(PostgresStore.Location(url: baseURL))
        let (tcp, url) = try await makeStore(.postgres)
        try await tcp.write {
            try await $0.insertUser(UserRecord(localID: "u1", phoneNumber: "+16505553434", createdAt: 1, validSince: Instant(secondsSince1970: 1)))
        }
        try await tcp.close()
        let database = try #require(PostgresStore.Location(url: url)).database
        let socket = try #require(PostgresStore.Location(url: "postgres://\(base.user)@/\(database)?host=\(root)&port=\(base.port)"))
        #expect(socket.socketDirectory == root)
        let store = try await PostgresStore(location: socket, logger: Logger(label: "test"))
        #expect(try await store.read { try await $0.user(tenant: .default, localID: "u1") }?.phoneNumber == "+16505553434")
        try await store.close()
    }
}
