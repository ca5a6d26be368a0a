import ArgumentParser
import FlintStore

/// `flint migrate`: bring the database schema up to this build's version and stop (nodes also migrate on start).
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Apply the database migrations of this build, then exit.",
        discussion: """
            Upgrading: stop nothing, run `flint migrate` with the new build against the database, then replace the nodes
            one by one. Migrations only add (tables, columns, indexes), so nodes of the previous build keep working while
            the others are replaced; a database migrated by a newer build is refused by an older one.
            """
    )
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let version = try await store.withStore { db in try await db.read { try await $0.schemaVersion() } }
        print("database \(store.describe) is at schema version \(version) (this build's latest: \(StoreSchema.latestVersion))")
    }
}
