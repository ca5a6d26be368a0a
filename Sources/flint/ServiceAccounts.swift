import ArgumentParser
import FlintCore
import FlintStore

/// `flint admin service-accounts create|list|revoke`: keys that sign custom tokens Flint accepts.
struct ServiceAccounts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service-accounts", abstract: "Service accounts whose keys sign custom tokens.",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a service account and write its Google-format credential file.",
            discussion: """
                Writes NAME@PROJECT.iam.gserviceaccount.com's private key to a service-account JSON file (mode 0600) that \
                the Firebase Admin SDKs load as a credential: custom tokens they make with it (create_custom_token / \
                createCustomToken) sign in through Flint. Flint stores only the public key. Keep the file secret: it \
                signs in any user.
                """)
        @OptionGroup var store: StoreOptions
        @Argument(help: "The account's name (\(CredentialName.rule)).") var name: String
        @Option(help: "Project ID in the file and the client email (env FLINT_PROJECT).") var project: String =
            FlintEnvironment.string("project") ?? "demo-flint"
        @Option(help: "Where to write the credential file (default: NAME-service-account.json); never overwritten.") var output: String?

        func validate() throws {
            guard CredentialName.isValid(name) else { throw ValidationError("NAME must be \(CredentialName.rule)") }
        }

        func run() async throws {
            let path = output ?? "\(name)-service-account.json"
            let key = try ServiceAccountKey.generate(name: name, projectID: project, random: SystemRandom())
            let record = ServiceAccountRecord(
                keyID: key.keyID, name: name, clientEmail: key.clientEmail, clientID: key.clientID, publicKeyPEM: key.publicKeyPEM,
                createdAt: SystemClock().now())
            try await store.withStore { db in
                if try await db.read({ try await $0.serviceAccounts() }).contains(where: { $0.name == name && $0.revokedAt == nil }) {
                    throw ValidationError("a service account named \(name) exists; revoke it first or pick another name")
                }
                try writeSecretFile(path, key.fileJSON)
                do {
                    try await db.write { tx in try await tx.insertServiceAccount(record) }
                } catch {
                    discardSecretFile(path)
                    throw error
                }
            }
            print("service account \(name): \(key.clientEmail), key \(key.keyID)")
            print("credential file written to \(path) (keep it secret: it signs custom tokens for any user)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List service accounts, revoked ones too.")
        @OptionGroup var store: StoreOptions
        @Flag(help: "Print JSON.") var json = false

        /// One account as `--json` prints it.
        struct Entry: Encodable {
            var name, clientEmail, keyId, clientId: String
            var createdAt: String?
            var revokedAt: String?
        }

        func run() async throws {
            let accounts = try await store.withStore { db in try await db.read { try await $0.serviceAccounts() } }
            let entries = accounts.map {
                Entry(
                    name: $0.name, clientEmail: $0.clientEmail, keyId: $0.keyID, clientId: $0.clientID, createdAt: credentialTime($0.createdAt),
                    revokedAt: credentialTime($0.revokedAt))
            }
            if json { return try printJSON(entries) }
            printTable(
                ["NAME", "CLIENT EMAIL", "KEY ID", "CREATED", "REVOKED"],
                entries.map { [$0.name, $0.clientEmail, $0.keyId, $0.createdAt ?? "-", $0.revokedAt ?? "-"] })
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a service account's key: custom tokens it signs are refused from now on, on every node.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The account's name.") var name: String

        func run() async throws {
            let revoked = try await store.withStore { db in
                try await db.write { tx in try await tx.revokeServiceAccount(name: name, at: SystemClock().now()) }
            }
            guard revoked else { throw ValidationError("no unrevoked service account named \(name)") }
            print("service account \(name) revoked")
        }
    }
}
