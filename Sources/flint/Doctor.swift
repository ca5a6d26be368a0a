import ArgumentParser
import FlintStore

/// `flint doctor`: checks the database, the keys and the config, and says in words what is wrong. On a restored
/// PostgreSQL database (docs/operations.md, "Backups") it is the check that the restore is whole: the schema version, the signing
/// keys and server secret opened with the master key given, the users counted.
struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check the database, signing keys and project config.")
    @OptionGroup var store: StoreOptions
    @Option(help: "Project ID to check tokens against.") var project: String = FlintEnvironment.string("project") ?? "demo-flint"

    func run() async throws {
        var checks = StoreChecks(projectID: project)
        let db: any AuthStore
        do {
            db = try await store.open(logger: quietLogger())
            checks.report(true, "the database at \(store.describe) opens and is migrated")
        } catch {
            checks.report(false, "the database at \(store.describe) cannot be opened: \(error)")
            throw ExitCode(1)
        }
        let masterKey = try await store.masterKey(for: db, useDataDirectory: true, create: false)
        try await checks.run(on: db, masterKey: masterKey)
        try await db.close()
        if checks.problems > 0 {
            print("\(checks.problems) problem(s) found")
            throw ExitCode(1)
        }
        print("all checks passed")
    }
}
