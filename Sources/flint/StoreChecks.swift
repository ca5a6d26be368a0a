import FlintCore
import FlintServer
import FlintStore

/// The checks `flint doctor` runs on a store, and `flint restore` on the store it has just restored: the schema
/// version, the secrets (sealed, and opened by the master key given), the signing keys (each opens, the active one
/// signs tokens that verify), the project config, and how many users (per tenant, the largest tenants named) and keys
/// the store holds. Each check prints one
/// line, `ok` or `FAIL`, in words.
struct StoreChecks {
    /// The project ID the test token is signed for.
    let projectID: String
    /// How many checks failed.
    private(set) var problems = 0

    init(projectID: String) { self.projectID = projectID }

    /// Prints one check's line and counts a failure.
    mutating func report(_ ok: Bool, _ text: String) {
        print("\(ok ? "ok  " : "FAIL") \(text)")
        if !ok { problems += 1 }
    }

    /// Runs every check on `db`, opening its secrets with `masterKey` (`nil`: none given).
    mutating func run(on db: any AuthStore, masterKey: StoreOptions.FoundMasterKey?) async throws {
        let version = try await db.read { try await $0.schemaVersion() }
        report(version == StoreSchema.latestVersion, "schema version \(version) (this build expects \(StoreSchema.latestVersion))")
        let secrets = try await checkSecrets(db, masterKey: masterKey)
        try await checkSigningKeys(db, secrets: secrets)
        do {
            let config = try await ProjectConfigStore.load(from: db, masterKey: nil)
            report(
                true,
                "the project config is valid (phone sign-in \(config.phoneSignInEnabled ? "on" : "off"), \(config.testPhoneNumbers.count) test number(s))"
            )
        } catch let error as AuthError {
            report(false, "the stored project config is invalid: \(error.message)")
        }
        let counts = try await db.read { try await $0.userCountsByTenant(limit: Self.tenantsShown) }
        report(true, Self.userLines(counts).joined(separator: "\n     "))
    }

    /// The tenants `flint doctor` names with their users: the largest (a project may have 10,000 of them).
    static let tenantsShown = 10

    /// The users line, and one line per tenant among the largest when any tenant holds users (the project's own users
    /// are the default tenant's).
    static func userLines(_ counts: TenantUserCounts) -> [String] {
        guard counts.tenants > 1 || counts.top.first?.tenant.isDefault == false else { return ["\(counts.users) user(s)"] }
        var lines = ["\(counts.users) user(s) in \(counts.tenants) tenant(s) (the project's own users counted as one); the largest:"]
        lines += counts.top.map { "\($0.users) in \($0.tenant.isDefault ? "the project (default tenant)" : "tenant " + $0.tenant.rawValue)" }
        if counts.tenants > counts.top.count { lines.append("… and \(counts.tenants - counts.top.count) more tenant(s)") }
        return lines
    }

    /// Reports whether the store's secrets are sealed and whether `masterKey` opens them; returns how to open them
    /// for the signing-key check.
    private mutating func checkSecrets(_ db: any AuthStore, masterKey found: StoreOptions.FoundMasterKey?) async throws -> SecretsAtRest {
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

    /// Reports whether every signing key opens and the active one signs tokens that verify with the published keys.
    private mutating func checkSigningKeys(_ db: any AuthStore, secrets: SecretsAtRest) async throws {
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
        guard let active = ring.signer(at: now) else {
            report(
                false,
                records.isEmpty
                    ? "no signing key yet: start `flint serve` once to create one" : "no signing key can sign: start `flint serve` to create one")
            return
        }
        let claims = IDTokenClaims(projectID: projectID, userID: "doctor", authTime: now, issuedAt: now, signInProvider: "custom")
        let verified = (try? TokenVerifier.verify(try TokenSigner.sign(claims, with: ring), ring: ring, projectID: projectID, now: now)) != nil
        report(verified, "the active signing key \(active.kid) signs tokens that verify with the published keys")
        report(true, "\(ring.published(at: now).count) key(s) published, \(records.count) stored")
        for key in ring.keys where ring.state(of: key, at: now) == .scheduled {
            report(true, "signing key \(key.kid) is scheduled: published now, it signs from \(ImportTimestamp.format(key.activatesAt))")
        }
    }
}
