import FlintStore
import Foundation
import Logging
import PostgresNIO

/// The test process's PostgreSQL servers. For each: one administrative client, one template database migrated on
/// first use (by `PostgresStore`, as a node migrates) and copied for every test that wants this build's schema
/// (`CREATE DATABASE … TEMPLATE`), and one gate through which every database is made, so that however many tests
/// start at once, at most ``width`` databases are being created at any moment.
actor PostgresTestServer {
    /// The one for the whole process.
    static let shared = PostgresTestServer()

    /// How many databases the process creates at once: each copy is disk work for the server, and tests that start
    /// together otherwise all wait on all of them.
    static let width = 2

    private let gate = AsyncGate(width: width)
    private var admins: [String: PostgresClient] = [:]
    private var templates: [String: Task<String, any Error>] = [:]
    private let logger: Logger = {
        var logger = Logger(label: "postgres-test-server")
        logger.logLevel = .warning
        return logger
    }()

    /// A new database on the server at `base`, named `prefix` and a random suffix, holding `schema`; its URL.
    func database(on base: String, prefix: String, schema: PostgresTestSchema) async throws -> String {
        let admin = try admin(on: base)
        let template: String? =
            switch schema {
            case .empty: nil
            case .migrated: try await template(on: base, admin: admin)
            }
        let name = Self.newName(prefix)
        try await create(name, from: template, admin: admin)
        return try postgresTestURL(base, database: name)
    }

    /// The running administrative client of the server at `base` (connected to `base`'s own database).
    private func admin(on base: String) throws -> PostgresClient {
        if let admin = admins[base] { return admin }
        guard let location = PostgresStore.Location(url: base) else {
            throw PostgresTestDatabaseError(description: "not a postgres:// URL with a user and a database: \(base)")
        }
        let admin = postgresTestClient(location, logger: logger, maximumConnections: Self.width)
        // It runs as long as the test process does.
        Task { await admin.run() }
        admins[base] = admin
        return admin
    }

    /// The migrated template's name on the server at `base`: the first caller starts making it (before any
    /// suspension, so there is one per server) and every caller waits for that one.
    private func template(on base: String, admin: PostgresClient) async throws -> String {
        if let making = templates[base] { return try await making.value }
        let making = Task { try await makeTemplate(on: base, admin: admin) }
        templates[base] = making
        return try await making.value
    }

    /// Creates an empty database, migrates it with `PostgresStore`, then marks it a template that nobody may connect
    /// to (a database being copied must have no other connection).
    private func makeTemplate(on base: String, admin: PostgresClient) async throws -> String {
        let name = Self.newName("flint_template_")
        try await create(name, from: nil, admin: admin)
        let url = try postgresTestURL(base, database: name)
        guard let location = PostgresStore.Location(url: url) else { throw PostgresTestDatabaseError(description: "no location for \(name)") }
        let store = try await PostgresStore(location: location, maximumConnections: 2, startTimeout: postgresTestStartLimit, logger: logger)
        try await store.close()
        try await admin.query(PostgresQuery(unsafeSQL: "ALTER DATABASE \(name) WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"), logger: logger)
        return name
    }

    /// `CREATE DATABASE name`, a copy of `template` if given, through the gate. A copy is refused while another
    /// session is connected to the template (the server waits 5 s first): the migrating store's sessions may still be
    /// ending, so the copy is tried again a few times.
    private nonisolated func create(_ name: String, from template: String?, admin: PostgresClient) async throws {
        let statement = "CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0)" } ?? "")
        let logger = logger
        try await gate.pass {
            var attempt = 0
            while true {
                attempt += 1
                do {
                    try await admin.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    return
                } catch let error as PSQLError where error.serverInfo?[.sqlState] == PostgresError.Code.objectInUse.raw && attempt < 4 {
                    // The PostgreSQL server's other backend is still ending: another process, given time, then tried again.
                    try await Task.sleep(for: .milliseconds(500))
                }
            }
        }
    }

    private static func newName(_ prefix: String) -> String {
        prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
