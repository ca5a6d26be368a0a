package import FlintStore
import Foundation
package import Logging
import NIOSSL
package import PostgresNIO

/// Why a PostgreSQL test database could not be made.
package struct PostgresTestDatabaseError: Error, CustomStringConvertible {
    package let description: String
}

/// What a new test database holds.
package enum PostgresTestSchema: Sendable {
    /// Nothing: for a test that migrates it step by step or makes tables of its own.
    case empty
    /// This build's schema, copied from the test process's migrated template: a store opened on it applies no
    /// migration, so a test's start costs a copy instead of every migration.
    case migrated
}

/// How long a test waits for a `PostgresStore` to start. Not the product's start limit (the store's `startTimeout`,
/// a rule for a server that cannot reach its database, tested as such): a test's database is already migrated, so a
/// start only connects, and a slow, loaded machine should make the tests slower, not fail them.
package let postgresTestStartLimit: Duration = .seconds(120)

/// A new database on the test server at `base` (a `postgres://` URL, normally `FLINT_TEST_POSTGRES_URL`), and its
/// URL: each test gets its own, so tests never see each other's keys or users. The test process makes them a few at a
/// time (``PostgresTestServer``), however many tests ask at once.
package func freshPostgresTestDatabase(
    on base: String, prefix: String = "flint_t_", schema: PostgresTestSchema = .migrated
) async throws -> String {
    try await PostgresTestServer.shared.database(on: base, prefix: prefix, schema: schema)
}

/// A PostgresNIO client for the test server's database at `location`, over TLS without verifying the throwaway
/// certificate (or plain, with `sslmode=disable`); the caller runs it.
package func postgresTestClient(_ location: PostgresStore.Location, logger: Logger, maximumConnections: Int = 20) -> PostgresClient {
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.certificateVerification = .none
    var config = PostgresClient.Configuration(
        host: location.host, port: location.port, username: location.user, password: location.password, database: location.database,
        tls: location.sslMode == "disable" ? .disable : .require(tls))
    config.options.maximumConnections = maximumConnections
    return PostgresClient(configuration: config, backgroundLogger: logger)
}

/// `base` with its database replaced by `database`.
func postgresTestURL(_ base: String, database: String) throws -> String {
    guard var parts = URLComponents(string: base) else { throw PostgresTestDatabaseError(description: "not a URL: \(base)") }
    parts.path = "/" + database
    guard let url = parts.string else { throw PostgresTestDatabaseError(description: "no URL for \(database)") }
    return url
}
