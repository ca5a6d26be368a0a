import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlintStore
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the data lives; shared by every command that opens the store.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: "Data directory holding the SQLite database (env FLINT_DATA).")
    var data: String = ProcessInfo.processInfo.environment["FLINT_DATA"] ?? ".flint"

    /// Opens the store, creating the directory (0700) when needed. The database holds the signing keys and the
    /// server secret, so everything Flint creates is private to its user (umask 077).
    func open(logger: Logger) async throws -> SQLiteStore {
        umask(0o077)
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return try await SQLiteStore(path: databasePath, logger: logger)
    }

    var databasePath: String { data.hasSuffix("/") ? data + "flint.sqlite" : data + "/flint.sqlite" }
}

/// The environment value for `name`, if set and non-empty.
func env(_ name: String) -> String? {
    guard let v = ProcessInfo.processInfo.environment[name], !v.isEmpty else { return nil }
    return v
}
