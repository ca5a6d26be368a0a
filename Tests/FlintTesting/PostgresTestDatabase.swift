import Foundation

/// Why a PostgreSQL test database could not be made.
package struct PostgresTestDatabaseError: Error, CustomStringConvertible {
    package let description: String
}

/// A new, empty database on the test server at `base` (a `postgres://` URL, normally `FLINT_TEST_POSTGRES_URL`),
/// created with `psql`, and its URL: each test gets its own, so runs never see each other's keys or users.
package func freshPostgresTestDatabase(on base: String, prefix: String = "flint_t_") throws -> String {
    let name = prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    let psql = Process()
    psql.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    psql.arguments = ["psql", base, "-v", "ON_ERROR_STOP=1", "-qc", "CREATE DATABASE \(name)"]
    try psql.run()
    psql.waitUntilExit()
    guard psql.terminationStatus == 0 else { throw PostgresTestDatabaseError(description: "psql could not create a database on \(base)") }
    guard var parts = URLComponents(string: base) else { throw PostgresTestDatabaseError(description: "not a URL: \(base)") }
    parts.path = "/" + name
    guard let url = parts.string else { throw PostgresTestDatabaseError(description: "no URL for \(name)") }
    return url
}
