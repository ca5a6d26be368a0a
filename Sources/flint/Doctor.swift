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
    @Option(help: "Project ID to check tokens against.") var project: String = FlintEnvironment.string("project") ?? "demo-flint"

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

        let secrets = try await checkSecrets(db, report: report)
        let records = try await db.read { try await $0.signingKeys() }
        var keys: [SigningKey] = []
        for record in records {
            do {
                keys.append(
                    try SigningKey(
                        kid: record.kid, privateKeyPEM: try secrets.openPrivateKey(record.privateKeyPEM, kid: record.kid),
                        certificatePEM: record.certificatePEM, createdAt: record.createdAt, activatesAt: record.activatesAt,
                        retiredAt: record.retiredAt, revokedAt: record.revokedAt
                    )
                )
            } catch {
                report(false, "signing key \(record.kid) cannot be read: \(error)")
            }
        }
        let ring = KeyRing(keys: keys)
        let now = SystemClock().now()
        if let active = ring.signer(at: now) {
            let claims = IDTokenClaims(projectID: project, userID: "doctor", authTime: now, issuedAt: now, signInProvider: "custom")
            let verified = (try? TokenVerifier.verify(try TokenSigner.sign(claims, with: ring), ring: ring, projectID: project, now: now)) != nil
            report(verified, "the active signing key \(active.kid) signs tokens that verify with the published keys")
            report(true, "\(ring.published(at: now).count) key(s) published, \(records.count) stored")
            for key in ring.keys where ring.state(of: key, at: now) == .scheduled {
                report(true, "signing key \(key.kid) is scheduled: published now, it signs from \(ImportTimestamp.format(key.activatesAt))")
            }
        } else {
            report(
                false,
                records.isEmpty
                    ? "no signing key yet: start `flint serve` once to create one" : "no signing key can sign: start `flint serve` to create one")
        }

        do {
            let config = try await ProjectConfigStore.load(from: db, masterKey: nil)
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

    /// Reports whether the store's secrets are sealed and whether the master key given (or the data directory's)
    /// opens them; returns how to open them for the signing-key check.
    private func checkSecrets(_ db: any AuthStore, report: (Bool, String) -> Void) async throws -> SecretsAtRest {
        let status = try await SecretsStatus.read(from: db)
        let sealed = status.sealedByKey.values.reduce(0, +)
        if status.inClear > 0 {
            report(false, "\(status.inClear) secret(s) stored in clear: start `flint serve` once with a master key to seal them")
        } else if sealed > 0 {
            let ids = status.sealedByKey.keys.sorted().joined(separator: ", ")
            report(
                true,
                "the signing keys, the server secret and the identity providers' secrets are encrypted at rest (\(sealed) sealed with master key \(ids))"
            )
        }
        let found = try await store.masterKey(for: db, useDataDirectory: true, create: false)
        let secrets = SecretsAtRest(masterKey: found?.key)
        guard let stored = try await db.read({ try await $0.masterSecret() }) else {
            report(false, "no server secret yet: start `flint serve` once to create it")
            return secrets
        }
        do {
            _ = try secrets.openServerSecret(stored)
            report(true, found.map { "the server secret opens with master key \($0.key.id) from \($0.source)" } ?? "the server secret is present")
        } catch {
            report(false, "\(error)")
        }
        return secrets
    }
}
