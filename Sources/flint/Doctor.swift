import ArgumentParser
import FlintCore
import FlintServer
import FlintStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `flint doctor`: checks the database, the keys and the config, and says in words what is wrong.
struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check the database, signing keys and project config.")
    @OptionGroup var store: StoreOptions
    @Option(help: "Project ID to check tokens against.") var project: String = env("FLINT_PROJECT") ?? "demo-flint"

    func run() async throws {
        var problems = 0
        func report(_ ok: Bool, _ text: String) {
            print("\(ok ? "ok  " : "FAIL") \(text)")
            if !ok { problems += 1 }
        }
        let db: any AuthStore
        do {
            db = try await store.open(logger: quietLogger())
            report(true, "the database at \(store.describe) opens and is migrated")
        } catch {
            report(false, "the database at \(store.describe) cannot be opened: \(error)")
            throw ExitCode(1)
        }
        let version = try await db.read { try await $0.schemaVersion() }
        report(version == StoreSchema.latestVersion, "schema version \(version) (this build expects \(StoreSchema.latestVersion))")

        let secret = try await db.read { try await $0.masterSecret() }
        report(secret?.count == 32, secret == nil ? "no server secret yet: start `flint serve` once to create it" : "the server secret is present")

        let records = try await db.read { try await $0.signingKeys() }
        var keys: [SigningKey] = []
        for record in records {
            do {
                keys.append(
                    try SigningKey(
                        kid: record.kid, privateKeyPEM: record.privateKeyPEM, certificatePEM: record.certificatePEM,
                        createdAt: record.createdAt, retiredAt: record.retiredAt
                    )
                )
            } catch {
                report(false, "signing key \(record.kid) cannot be read: \(error)")
            }
        }
        let ring = KeyRing(keys: keys)
        if let active = ring.active {
            let now = SystemClock().now()
            let claims = IDTokenClaims(projectID: project, userID: "doctor", authTime: now, issuedAt: now, signInProvider: "custom")
            let verified = (try? TokenVerifier.verify(try TokenSigner.sign(claims, with: ring), ring: ring, projectID: project, now: now)) != nil
            report(verified, "the active signing key \(active.kid) signs tokens that verify with the published keys")
            report(true, "\(ring.published(at: now).count) key(s) published, \(records.count) stored")
        } else {
            report(
                false,
                records.isEmpty
                    ? "no signing key yet: start `flint serve` once to create one" : "every signing key is retired: run `flint keys rotate`")
        }

        do {
            let config = try await ProjectConfigStore.load(from: db)
            report(
                true,
                "the project config is valid (phone sign-in \(config.phoneSignInEnabled ? "on" : "off"), \(config.testPhoneNumbers.count) test number(s))"
            )
        } catch let error as AuthError {
            report(false, "the stored project config is invalid: \(error.message)")
        }
        try await db.close()
        if problems > 0 {
            print("\(problems) problem(s) found")
            throw ExitCode(1)
        }
        print("all checks passed")
    }
}
