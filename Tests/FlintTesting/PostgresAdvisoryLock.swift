import FlintStore
import Logging
import PostgresNIO

/// Runs `body` while a session of its own holds PostgreSQL's advisory lock `key` on the database at `url` (a
/// `postgres://` URL of the test server), as a node migrating holds ``PostgresStore/migrationLock``: a node starting
/// meanwhile waits at its migrations.
package func withPostgresAdvisoryLock<T: Sendable>(
    _ key: Int64, on url: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    guard let location = PostgresStore.Location(url: url) else { throw PostgresTestDatabaseError(description: "not a postgres:// URL: \(url)") }
    let logger = Logger(label: "flint-test-lock")
    let client = postgresTestClient(location, logger: logger, maximumConnections: 1)
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask {
            await client.run()
            return nil
        }
        let value = try await client.withConnection { connection in
            _ = try await connection.query(PostgresQuery(unsafeSQL: "SELECT pg_advisory_lock(\(key))"), logger: logger)
            let value: T
            do {
                value = try await body()
            } catch {
                _ = try? await connection.query(PostgresQuery(unsafeSQL: "SELECT pg_advisory_unlock(\(key))"), logger: logger)
                throw error
            }
            _ = try await connection.query(PostgresQuery(unsafeSQL: "SELECT pg_advisory_unlock(\(key))"), logger: logger)
            return value
        }
        group.cancelAll()
        return value
    }
}
