import FlintCore
import FlintStore
import FlintTesting
import Foundation
import Logging
import PostgresNIO

/// The engines every storage test runs against: SQLite always, PostgreSQL when `FLINT_TEST_POSTGRES_URL` names a
/// server (`./scripts/test` starts a throwaway cluster and sets it).
enum Engine: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite, postgres

    var description: String { rawValue }

    static var all: [Engine] {
        ProcessInfo.processInfo.environment["FLINT_TEST_POSTGRES_URL"] == nil ? [.sqlite] : [.sqlite, .postgres]
    }
}

func testLogger() -> Logger {
    var logger = Logger(label: "store-test")
    logger.logLevel = .warning
    return logger
}

/// A fresh store: a temporary SQLite file (WAL needs a real file), or a new PostgreSQL database. Pass `location`
/// (the file path or database URL returned earlier) to open the same data again.
func makeStore(_ engine: Engine = .sqlite, location: String? = nil) async throws -> (any AuthStore, String) {
    switch engine {
    case .sqlite:
        let file = location ?? FileManager.default.temporaryDirectory.appendingPathComponent("flint-store-\(UUID().uuidString).sqlite").path
        return (try await SQLiteStore(path: file, logger: testLogger()), file)
    case .postgres:
        let url: String
        if let location { url = location } else { url = try await freshPostgresDatabase() }
        guard let where_ = PostgresStore.Location(url: url) else { throw TestSetupError(message: "bad FLINT_TEST_POSTGRES_URL") }
        return (try await PostgresStore(location: where_, maximumConnections: 8, startTimeout: postgresTestStartLimit, logger: testLogger()), url)
    }
}

/// A PostgresNIO client for the test server's database at `location`; the caller runs it.
func testPostgresClient(_ location: PostgresStore.Location) -> PostgresClient {
    postgresTestClient(location, logger: testLogger())
}

/// A new database on the test server, holding this build's schema unless `schema` is `.empty`; its URL.
func freshPostgresDatabase(_ schema: PostgresTestSchema = .migrated) async throws -> String {
    guard let base = ProcessInfo.processInfo.environment["FLINT_TEST_POSTGRES_URL"] else {
        throw TestSetupError(message: "FLINT_TEST_POSTGRES_URL is not set")
    }
    return try await freshPostgresTestDatabase(on: base, schema: schema)
}

struct TestSetupError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

func session(_ id: String, phone: String = "+16505553434", hash: String = "aa", now: Instant = 1_000_000, ttl: Duration = .seconds(300))
    -> CodeSession
{
    CodeSession(id: id, phoneNumber: phone, purpose: .signIn, codeHash: hash, createdAt: now, expiresAt: now + ttl)
}

struct Boom: Error {}
